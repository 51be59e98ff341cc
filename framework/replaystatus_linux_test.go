package framework_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/recording"
)

// TestReplayExitStatuses (issue 47 item 2): a recording game killed with
// SIGKILL leaves a recording whole up to its last chunk, with no end
// marker; its replay, in a process of its own, exits with
// StatusReplayCut and says so in words. The same recording with a byte
// flipped mid-file exits with StatusReplayDamaged, and replayed into a
// game whose world differs, with StatusReplayDiverged. A script tells the
// three apart from the status alone; all three used to exit 1.
func TestReplayExitStatuses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts games")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "killed.rec")
	c := startChild(t, "1", "--record", path)
	if !c.until(t, "tick 150 ") { // past the first checkpoints, and a chunk or two on disk
		t.Fatal("the game ended before tick 150")
	}
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	c.drain()
	_ = c.cmd.Wait()
	gone(t, c.xvfb)
	ticks, checks, end, err := recorded(t, path)
	if end != nil || !errors.Is(err, recording.ErrIncomplete) || checks == 0 {
		t.Fatalf("the killed game's recording: %d ticks, %d checkpoints, end %v, error %v; want checkpoints and no end marker", ticks, checks, end, err)
	}

	// Cut: a real process, its exit status and its last line.
	replay := exec.Command(os.Args[0], "--replay", path)
	replay.Env = append(os.Environ(), faultChildEnv+"=1")
	var stderr bytes.Buffer
	replay.Stderr = &stderr
	err = replay.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != framework.StatusReplayCut {
		t.Errorf("replay of the killed game's recording: %v, want exit status %d; stderr:\n%s", err, framework.StatusReplayCut, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "without an end marker: its session was killed") {
		t.Errorf("last line %q, want it to say the session was killed", last)
	}

	// Damaged: a byte flipped in the middle of the recording.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x55
	damaged := filepath.Join(dir, "damaged.rec")
	if err := os.WriteFile(damaged, data, 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if got := framework.MainStatus(faultGame(), []string{"--replay", damaged}, &bytes.Buffer{}, &stderr); got != framework.StatusReplayDamaged {
		t.Errorf("replay of a damaged recording: status %d, want %d; stderr:\n%s", got, framework.StatusReplayDamaged, stderr.String())
	}

	// Diverged: a game whose world holds one more entity.
	g := faultGame()
	setup := g.Setup
	g.Setup = func(s *framework.Setup) error {
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "extra", Run: func(ctx *ecs.Sys) {
			ecs.With(ctx.Commands.Spawn(), ecs.At(1, 1))
		}})
		return setup(s)
	}
	stderr.Reset()
	if got := framework.MainStatus(g, []string{"--replay", path}, &bytes.Buffer{}, &stderr); got != framework.StatusReplayDiverged {
		t.Errorf("replay into a diverging game: status %d, want %d; stderr:\n%s", got, framework.StatusReplayDiverged, stderr.String())
	}
}
