package framework_test

import (
	"bytes"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/internal/testdisplay"
)

// TestReplayRefusesSimulationSettings: --set and --config given to a
// replay are checked against the recorded configuration (they used to be
// ignored, even a broken file): a key that may change the simulation is
// refused naming it, one set to its recorded value and the presentation
// keys are accepted, and a file that cannot be read or parsed is an
// error.
func TestReplayRefusesSimulationSettings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fixed.rec")
	sim, err := frameworktest.New(countingGame(1), frameworktest.Options{Record: path, Sets: []string{"timing.mode=fixed"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RunTicks(70); err != nil {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.toml")
	simulated := filepath.Join(dir, "simulated.toml")
	shown := filepath.Join(dir, "shown.toml")
	for name, text := range map[string]string{
		broken:    "[window\nwidth = 3\n",
		simulated: "[timing]\nmode = \"fixed\"\nmax_fixed_updates = 4\n",
		shown:     "[window]\nwidth = 640\n[audio]\nmaster_volume = 0.5\n[timing]\nmode = \"fixed\"\n",
	} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		args   []string
		status int
		want   []string // in the message
	}{
		{"simulation key", []string{"--set", "timing.mode=variable"}, 1,
			[]string{`command line: timing.mode = "variable": a replay runs with the recorded configuration ("fixed")`, "window.width"}},
		{"binding", []string{"--set", "input.bindings.jump=Space"}, 1,
			[]string{`input.bindings.jump = ["Space"]: a replay runs with the recorded configuration (none)`}},
		{"every key at once", []string{"--config", simulated, "--set", "polling.spacing=1ms"}, 1,
			[]string{simulated + ": timing.max_fixed_updates = 4", "command line: polling.spacing = \"1ms\""}},
		{"broken file", []string{"--config", broken}, 1, []string{broken + ":2:8: invalid TOML"}},
		{"missing file", []string{"--config", filepath.Join(dir, "none.toml")}, 1, []string{"none.toml: cannot read the file"}},
		{"out of range", []string{"--set", "audio.master_volume=9"}, 1, []string{"audio.master_volume"}},
		{"recorded value", []string{"--set", "timing.mode=fixed"}, 0, nil},
		{"presentation", []string{"--config", shown, "--set", "audio.enabled=false", "--set", "window.vsync=false"}, 0, nil},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		status := framework.MainStatus(countingGame(1), append([]string{"--replay", path}, tt.args...), &stdout, &stderr)
		if status != tt.status {
			t.Errorf("%s: status %d, stderr %q; want %d", tt.name, status, stderr.String(), tt.status)
		}
		for _, w := range tt.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%s: stderr %q, want %q in it", tt.name, stderr.String(), w)
			}
		}
		if tt.status == 0 && !strings.Contains(stdout.String(), "replayed 70 ticks") {
			t.Errorf("%s: printed %q, want the 70 ticks replayed", tt.name, stdout.String())
		}
	}
}

// TestWatchedReplayAppliesPresentationSettings: a replay watched in a
// window takes the window's size and audio.enabled from --set (they used
// to be ignored: the recorded size, and sound on).
func TestWatchedReplayAppliesPresentationSettings(t *testing.T) {
	testdisplay.Require(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "run.rec")
	cfg := headlessConfig(t)
	var err error
	testdisplay.OnMain(func() {
		err = framework.Run(spriteGame(), cfg, framework.RunOptions{Ticks: 30, Record: path})
	})
	if err != nil {
		t.Fatal(err)
	}
	off := "(setup never ran)"
	g := spriteGame()
	setup := g.Setup
	g.Setup = func(s *framework.Setup) error {
		off = s.Sound.Off()
		return setup(s)
	}
	shot := filepath.Join(dir, "shot.png")
	var status int
	var stderr bytes.Buffer
	testdisplay.OnMain(func() {
		status = framework.MainStatus(g, []string{"--replay", path, "--window", "--headless", "--screenshot", shot,
			"--set", "window.width=320", "--set", "window.height=200", "--set", "audio.enabled=false"}, io.Discard, &stderr)
	})
	if status != 0 {
		t.Fatalf("watched replay with presentation settings: status %d, stderr %q", status, stderr.String())
	}
	if !strings.Contains(off, "audio.enabled = false") {
		t.Errorf("watched replay with audio.enabled=false: Setup.Sound.Off() = %q, want disabled in the configuration", off)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	if img.Width != 320 || img.Height != 200 {
		t.Errorf("watched replay with window.width=320, window.height=200: screenshot %dx%d", img.Width, img.Height)
	}
}
