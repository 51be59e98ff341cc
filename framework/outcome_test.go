package framework_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
)

// fullDisk is a recording file that takes limit bytes and then fails as
// a full disk does.
type fullDisk struct {
	f     *os.File
	limit int
}

func (d *fullDisk) Write(b []byte) (int, error) {
	if len(b) > d.limit {
		return 0, errors.New("no space left on device")
	}
	d.limit -= len(b)
	return d.f.Write(b)
}
func (d *fullDisk) Sync() error  { return d.f.Sync() }
func (d *fullDisk) Close() error { return d.f.Close() }

func headlessConfig(t *testing.T) config.Config {
	t.Helper()
	cfg := config.Default()
	for _, s := range []string{"window.headless=true", "window.vsync=false", "timing.mode=fixed", "audio.enabled=false"} {
		if err := cfg.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	return cfg
}

// readEnd reads a recording to its end marker.
func readEnd(t *testing.T, path string) (*recording.End, uint64) {
	t.Helper()
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var ticks uint64
	for {
		it, err := r.Next()
		if err != nil {
			t.Fatalf("%s after %d ticks: %v", path, ticks, err)
		}
		switch v := it.(type) {
		case *recording.Tick:
			ticks++
		case *recording.End:
			e := *v
			return &e, ticks
		}
	}
}

// TestRecordingFailureAtCloseIsAnError: a disk that fills up while the
// session runs fails the session with the recording named, and the exit
// status says so (the recording's error used to be dropped: exit 0, no
// message, no end marker).
func TestRecordingFailureAtCloseIsAnError(t *testing.T) {
	testdisplay.Require(t)
	path := filepath.Join(t.TempDir(), "full.rec")
	restore := framework.SetCreateRecording(func(p string) (framework.RecordingFile, error) {
		f, err := os.Create(p)
		if err != nil {
			return nil, err
		}
		return &fullDisk{f: f, limit: 4096}, nil // the header, then a little
	})
	defer restore()
	cfg := headlessConfig(t)
	var err error
	testdisplay.OnMain(func() {
		err = framework.Run(spriteGame(), cfg, framework.RunOptions{Frames: 120, Record: path})
	})
	if err == nil || !strings.Contains(err.Error(), "framework: the recording is incomplete: recording: "+path+": byte ") ||
		strings.Contains(err.Error(), path+" is incomplete") || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("Run with a disk that fills up: got %v, want the recording's failure", err)
	}
	var stderr bytes.Buffer
	var status int
	testdisplay.OnMain(func() {
		status = framework.MainStatus(spriteGame(), []string{"--headless", "--set", "audio.enabled=false", "--frames", "120", "--record", path}, io.Discard, &stderr)
	})
	if status != 1 || !strings.Contains(stderr.String(), "no space left on device") {
		t.Errorf("exit status %d, stderr %q; want 1 and the disk's error", status, stderr.String())
	}
}

// TestRecordingEndSaysPanicked: a game that panics ends its recording
// with the panic, not with "clean stop".
func TestRecordingEndSaysPanicked(t *testing.T) {
	testdisplay.Require(t)
	path := filepath.Join(t.TempDir(), "panic.rec")
	g := spriteGame()
	g.Setup = func(s *framework.Setup) error {
		n := 0
		s.App.AddSystem(ecs.Update, ecs.System{Name: "boom", Run: func(*ecs.Sys) {
			if n++; n == 30 {
				panic("the game's own bug")
			}
		}})
		return nil
	}
	cfg := headlessConfig(t)
	var err error
	testdisplay.OnMain(func() {
		err = framework.Run(g, cfg, framework.RunOptions{Frames: 600, Record: path})
	})
	if err == nil || !strings.Contains(err.Error(), "the game's own bug") {
		t.Fatalf("Run: got %v, want the panic", err)
	}
	end, ticks := readEnd(t, path)
	if end.Outcome != recording.Panicked || !strings.Contains(end.Error, "the game's own bug") {
		t.Errorf("end marker: %v %q, want panicked with the panic's value", end.Outcome, end.Error)
	}
	if ticks != 30 {
		t.Errorf("recorded %d ticks, want the 30 that ran", ticks)
	}
}

// TestReplayRefusesAnotherGame: two games of one module (the demo and an
// example, say) are told apart by title; the message names both titles,
// and what the games share once. When only the module differs (issue 47
// item 3), the message names the two modules: it used to name the same
// title and package twice.
func TestReplayRefusesAnotherGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.rec")
	a := framework.Game{Title: "Asteroids"}
	sim, err := frameworktest.New(a, frameworktest.Options{Record: path})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RunTicks(10); err != nil {
		t.Fatal(err)
	}
	b := framework.Game{Title: "Breakout"}
	var stderr bytes.Buffer
	if status := framework.MainStatus(b, []string{"--replay", path}, io.Discard, &stderr); status != 1 ||
		!strings.Contains(stderr.String(), `the recording is of another game: its title is "Asteroids", this game's "Breakout" (the same module github.com/metronome-go/metronome, main package github.com/metronome-go/metronome/framework.test)`) {
		t.Errorf("replaying another game's recording: status %d, stderr %q", status, stderr.String())
	}

	// The same title and package, another module (a fork, say).
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	r.Close()
	h.Game = "example.com/fork"
	forked := filepath.Join(t.TempDir(), "fork.rec")
	f, err := os.Create(forked)
	if err != nil {
		t.Fatal(err)
	}
	w, err := recording.NewWriter(f, forked, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(w.Close(nil), f.Close()); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	want := `the recording is of another game: its module is example.com/fork, this game's github.com/metronome-go/metronome (the same main package github.com/metronome-go/metronome/framework.test, title "Asteroids")`
	if status := framework.MainStatus(a, []string{"--replay", forked}, io.Discard, &stderr); status != 1 || !strings.Contains(stderr.String(), want) {
		t.Errorf("replaying another module's recording: status %d, stderr %q, want %q", status, stderr.String(), want)
	}
	if status := framework.MainStatus(a, []string{"--replay", path}, io.Discard, &stderr); status != 0 {
		t.Errorf("replaying its own recording: status %d, stderr %q", status, stderr.String())
	}
}

// TestReplayBoundsTheRecordedConfiguration: a recording whose embedded
// configuration is nested thousands deep (98 KB that made a replay
// allocate gigabytes) is refused before its configuration is parsed,
// naming the file and the limit.
func TestReplayBoundsTheRecordedConfiguration(t *testing.T) {
	g := framework.Game{Title: "deep"}
	h := framework.RecordingHeader(g, config.Default(), runtime.Sequential)
	h.Config = []byte("x = " + strings.Repeat("{a = ", 20000) + "1" + strings.Repeat("}", 20000) + "\n")
	path := filepath.Join(t.TempDir(), "deep.rec")
	w, err := recording.Create(path, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	_, _, _, err = framework.NewReplaySession(g, path)
	if err == nil || !strings.Contains(err.Error(), path+" (recorded configuration):1: nested deeper than 16 levels") {
		t.Errorf("replaying a recording with a deeply nested configuration: got %v, want the depth refused", err)
	}
}

// TestSamePackage: two game binaries are told apart by main package; a
// test binary replays any of its module's, and the binaries replay what a
// test recorded (the title still tells games apart).
func TestSamePackage(t *testing.T) {
	for _, tc := range []struct {
		rec, play string
		want      bool
	}{
		{"example.com/m/cmd/demo", "example.com/m/cmd/demo", true},
		{"example.com/m/cmd/demo", "example.com/m/examples/breakout", false},
		{"example.com/m/cmd/demo", "example.com/m/game.test", true},
		{"example.com/m/game.test", "example.com/m/cmd/demo", true},
		{"", "example.com/m/cmd/demo", true}, // format 3 and older name no package
	} {
		if got := framework.SamePackage(tc.rec, tc.play); got != tc.want {
			t.Errorf("recorded by %q, replayed by %q: got %v, want %v", tc.rec, tc.play, got, tc.want)
		}
	}
}
