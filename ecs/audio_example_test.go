package ecs_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A system plays a footstep on every tick. The simulation stalls and
// catches up with four fixed ticks run back to back, the first three
// quiet; the footsteps still come out a step (800 frames at 48 kHz and
// 60 Hz) apart, each at its tick's span plus the 80 ms latency.
func ExampleAddAudio() {
	m, _ := audio.NewMixer(audio.DefaultOptions()) // 48 kHz, 80 ms latency
	lib, _ := assets.NewLibrary(assets.DefaultOptions())
	s, _ := audio.Synth{Wave: audio.Noise, Amplitude: 0.5, Duration: 5 * time.Millisecond, Rate: 48000}.Sound("step")
	step, _ := lib.AddSound(s)

	app, _ := ecs.NewApp(ecs.Options{Assets: lib})
	ecs.AddAudio(app, m.Player())
	app.AddSystem(ecs.Update, ecs.System{Name: "walk", Run: func(ctx *ecs.Sys) {
		ctx.PlaySound(step, audio.DefaultParams())
	}})
	app.InitSimulation(nil)

	origin := timing.Instant(1_000_000_000)
	m.Start(origin) // the device does this at its first buffer
	const tick = 16_666_667
	for n := range 4 {
		start := origin + timing.Instant(n*tick)
		app.Update(&runtime.TickContext{Update: timing.Update{
			Kind: timing.FixedUpdate, Number: uint64(n), Steps: 1, Delta: tick,
			Start: start, End: start + tick, Quiet: n < 3, Final: n == 3}})
	}

	buf := make([]float32, 2*480)
	var onsets []int64
	silent := true
	for range 16 {
		frame := m.Stats().Frames
		m.Render(buf)
		for i := 0; i < len(buf); i += 2 {
			if buf[i] != 0 && silent {
				onsets = append(onsets, frame+int64(i/2))
			}
			silent = buf[i] == 0
		}
	}
	st := m.Stats()
	fmt.Println("footsteps at frames", onsets)
	fmt.Printf("placed %d, late %d, dropped %d\n", st.Placed, st.Late, st.Dropped)
	// Output:
	// footsteps at frames [3840 4640 5440 6240]
	// placed 4, late 0, dropped 0
}
