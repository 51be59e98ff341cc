package framework_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
)

type counter struct{ N int }

// countingGame adds step to a counter at every tick: a replay of it with
// another step diverges at the first checkpoint.
func countingGame(step int) framework.Game {
	return framework.Game{Title: "counting", Setup: func(s *framework.Setup) error {
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			ecs.With(ctx.Commands.Spawn(), counter{})
		}})
		f := ecs.NewFilter1[counter](s.App.World())
		s.App.AddSystem(ecs.Update, ecs.System{Name: "count", Run: func(*ecs.Sys) {
			q := f.Query()
			for q.Next() {
				q.Get().N += step
			}
		}})
		return nil
	}}
}

// recordCounting records ticks updates of countingGame(1) headless.
func recordCounting(t *testing.T, ticks int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "counting.rec")
	sim, err := frameworktest.New(countingGame(1), frameworktest.Options{Record: path})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RunTicks(ticks); err != nil {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReplayMessages: a replay's result line says how many checkpoints
// matched, and its errors carry one prefix per layer ("runtime: replay:
// runtime: replay diverged" and a file named twice, before).
func TestReplayMessages(t *testing.T) {
	path := recordCounting(t, 130) // checkpoints after ticks 59, 119 and 129
	var stdout, stderr bytes.Buffer
	if status := framework.MainStatus(countingGame(1), []string{"--replay", path}, &stdout, &stderr); status != 0 {
		t.Fatalf("--replay: status %d, stderr %q", status, stderr.String())
	}
	if got := stdout.String(); !strings.HasPrefix(got, "replayed 130 ticks in ") || !strings.HasSuffix(got, "ticks/s), 3 checkpoints matched\n") {
		t.Errorf("--replay printed %q, want 130 ticks and 3 checkpoints matched", got)
	}

	tests := []struct {
		name   string
		g      framework.Game
		path   string
		out    string // the result line's start, "" for none
		want   string // the message after the program's name
		status int
	}{
		{"diverged", countingGame(2), path, "replayed 60 ticks in ", "runtime: replay diverged after tick 59: world hash ", framework.StatusReplayDiverged},
		{"missing", countingGame(1), path + ".missing", "", "framework: --replay: recording: " + path + ".missing: open: ", framework.StatusFailed},
	}
	for _, tt := range tests {
		stdout.Reset()
		stderr.Reset()
		if status := framework.MainStatus(tt.g, []string{"--replay", tt.path}, &stdout, &stderr); status != tt.status {
			t.Errorf("%s: status %d, want %d", tt.name, status, tt.status)
		}
		if got := stdout.String(); tt.out == "" && got != "" || !strings.HasPrefix(got, tt.out) {
			t.Errorf("%s: printed %q, want a line starting %q", tt.name, got, tt.out)
		}
		msg, ok := strings.CutPrefix(stderr.String(), "framework.test: ")
		if !ok || !strings.HasPrefix(msg, tt.want) {
			t.Errorf("%s: stderr %q, want %q after the program's name", tt.name, stderr.String(), tt.want)
		}
		for _, prefix := range []string{"runtime: ", "framework: ", "recording: ", tt.path} {
			if n := strings.Count(msg, prefix); n > 1 {
				t.Errorf("%s: %q says %q %d times", tt.name, msg, prefix, n)
			}
		}
	}
}
