package audio_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/timing"
)

// A catch-up burst of four fixed updates runs at once, 100 ms late; the
// footsteps they request still come out one step (800 frames) apart,
// 50 ms of latency after their updates' starts.
func Example() {
	o := audio.DefaultOptions()
	o.Rate = 48000
	o.Latency = 50 * time.Millisecond
	m, _ := audio.NewMixer(o)
	origin := timing.Instant(1_000_000_000)
	m.Start(origin) // the device does this at its first buffer

	step, _ := audio.Synth{Wave: audio.Noise, Amplitude: 0.5, Duration: 5 * time.Millisecond, Rate: 48000}.Sound("step")
	buf := make([]float32, 2*480) // 10 ms buffers

	// The device has played 120 ms; the burst's spans start at 80 ms.
	for range 12 {
		m.Render(buf)
	}
	for k := range 4 {
		start := origin + timing.Instant(80*time.Millisecond) + timing.Instant(k)*timing.Instant(16_666_667)
		u := timing.Update{Kind: timing.FixedUpdate, Start: start, End: start + 16_666_667, Quiet: k < 3}
		m.Player().Play(step, audio.InUpdate(u), audio.DefaultParams())
	}
	frame := m.Stats().Frames
	var starts []int64
	silent := true
	for range 20 {
		m.Render(buf)
		for i := 0; i < len(buf); i += 2 {
			if buf[i] != 0 && silent {
				starts = append(starts, frame)
			}
			silent = buf[i] == 0
			frame++
		}
	}
	st := m.Stats()
	fmt.Println("footsteps start at frames", starts)
	fmt.Printf("placed %d, late %d, dropped %d\n", st.Placed, st.Late, st.Dropped)
	// Output:
	// footsteps start at frames [6240 7040 7840 8640]
	// placed 4, late 0, dropped 0
}

// A tapped silent player, as the inspector gives a replay: it plays
// nothing, and hands each request to the tap, which names the sounds a
// tick asked for.
func ExamplePlayer_Tapped() {
	blip, _ := audio.Synth{Wave: audio.Square, Freq: 440, Amplitude: 0.3, Duration: 30 * time.Millisecond, Rate: 48000}.Sound("blip")
	var p *audio.Player // silent: no device
	p = p.Tapped(func(r audio.Request) {
		name := ""
		if r.Sound != nil {
			name = r.Sound.Name()
		}
		fmt.Println(r.Kind, name, r.Voice.ID())
	})
	at := audio.AtInstant(timing.Instant(1_000_000_000))
	v, _ := p.Play(blip, at, audio.DefaultParams())
	_ = p.Stop(v, at.Later(10*time.Millisecond), 0)
	// Output:
	// play blip 1
	// stop  1
}
