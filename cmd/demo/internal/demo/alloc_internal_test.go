//go:build !race

package demo

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// TestOverlayFormattingAllocs: formatting the overlay's statistics and the
// input line into reused buffers allocates nothing; the only allocations of
// a refresh are the text strings handed to the Text components, four times
// a second.
func TestOverlayFormattingAllocs(t *testing.T) {
	in := overlayInput{FPS: 60, TPS: 60, Bunnies: 500, Input: []byte("input of tick 3: pressed Space x1")}
	in.Timing.Mode = timing.FixedMode
	in.Timing.Step = 16_666_667
	in.Timing.Acting = timing.MechPacing
	in.Telemetry.WindowPacedFrames = 120
	in.Telemetry.WindowLatenessMedian = 120 * time.Microsecond
	buf := appendStats(nil, &in)
	var presses [input.ButtonCount + 1]int
	presses[input.KeySpace] = 2
	var down input.ButtonSet
	down.Add(input.KeyW)
	line := appendInputLine(nil, 3, &presses, down)
	frames := make([]timing.TelemetryFrame, timing.TelemetryWindow)
	mixed := audioLine{Latency: 80 * time.Millisecond, Device: true, Lead: 38 * time.Millisecond, Queued: 18 * time.Millisecond}
	mixed.Stats.Placed, mixed.Stats.Voices = 12, 3
	silent := audioLine{Off: "no audio device: oto: ALSA error at snd_pcm_open: \"default\": No such file or directory, and more"}
	var audioBuf []byte
	audioBuf = appendAudioLine(audioBuf, &mixed)
	audioBuf = appendAudioLine(audioBuf, &silent)
	tests := []struct {
		name string
		f    func()
	}{
		{"stats", func() { buf = appendStats(buf[:0], &in) }},
		{"input line", func() { line = appendInputLine(line[:0], 3, &presses, down) }},
		{"debt scale", func() { _ = debtScale(frames) }},
		{"audio line", func() { audioBuf = appendAudioLine(audioBuf[:0], &mixed) }},
		{"silent audio line", func() { audioBuf = appendAudioLine(audioBuf[:0], &silent) }},
	}
	for _, tt := range tests {
		if got := testing.AllocsPerRun(100, tt.f); got != 0 {
			t.Errorf("%s: got %v allocations per run, want 0", tt.name, got)
		}
	}
}

// TestPresentProbeAllocs: watching a present and summarising the latest
// ones allocate nothing (Render runs at every present).
func TestPresentProbeAllocs(t *testing.T) {
	p := &presentProbe{Renderer: nullRenderer{}}
	f := probeFrame(3, 0.5)
	for name, fn := range map[string]func(){
		"render":           func() { _ = p.Render(f); f.Passes[0].Packets[1].Transform.Position.X++ },
		"summary":          func() { _ = p.Summary(0) },
		"summary per slot": func() { _ = p.Summary(time.Second / 144) },
	} {
		if got := testing.AllocsPerRun(200, fn); got != 0 {
			t.Errorf("%s: got %v allocations per run, want 0", name, got)
		}
	}
}
