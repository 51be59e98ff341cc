package audio_test

import (
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
)

// atFrame returns an At that the test mixer places at frame f exactly.
func atFrame(f int) audio.At {
	// frame f + latency frames; 1e9/48000 is 20833.33 ns, so round up.
	ns := (int64(f)*1e9 + rate - 1) / rate
	return audio.AtInstant(origin - timing50ms() + timingInstant(ns))
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-4 }

func TestFades(t *testing.T) {
	m := newMixer(t, options())
	p := m.Player()
	params := audio.DefaultParams()
	params.FadeIn = 10 * time.Millisecond // 480 frames
	v, err := p.Play(constant(t, 48000, 1), atFrame(100), params)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(v, atFrame(2000), 5*time.Millisecond); err != nil { // 240 frames
		t.Fatal(err)
	}
	left, right := render(m, 3000, 256)
	for i := 0; i < 3000; i++ {
		var want float32
		switch {
		case i < 100:
			want = 0
		case i < 580:
			want = float32(i-100) / 480
		case i < 2000:
			want = 1
		case i < 2240:
			want = 1 - float32(i-2000)/240
		default:
			want = 0
		}
		if !near(left[i], want) || left[i] != right[i] {
			t.Fatalf("frame %d = (%g, %g), want %g", i, left[i], right[i], want)
		}
	}
	if st := m.Stats(); st.Voices != 0 {
		t.Errorf("%d voices busy after the fade-out, want 0", st.Voices)
	}
}

func TestVolumeChangeAndBuses(t *testing.T) {
	m := newMixer(t, options())
	p := m.Player()
	fx := audio.DefaultParams()
	music := audio.DefaultParams()
	music.Bus = audio.Music
	music.Volume = 0.5
	if _, err := p.Play(constant(t, 48000, 0.25), atFrame(0), fx); err != nil {
		t.Fatal(err)
	}
	mv, err := p.Play(constant(t, 48000, 0.5), atFrame(0), music)
	if err != nil {
		t.Fatal(err)
	}
	left, _ := render(m, 100, 100)
	if want := float32(0.25 + 0.25); left[50] != want {
		t.Errorf("effects 0.25 + music 0.5×0.5 = %g, want %g", left[50], want)
	}
	// Bus volume with a ramp, then mute, then master.
	if err := p.SetBusVolume(audio.Music, 0, 0); err != nil {
		t.Fatal(err)
	}
	left, _ = render(m, 100, 100)
	if left[50] != 0.25 {
		t.Errorf("music bus at 0: %g, want 0.25", left[50])
	}
	p.SetBusVolume(audio.Music, 1, 0)
	p.SetBusMute(audio.Effects, true)
	left, _ = render(m, 1000, 100) // the mute ramp is 5 ms = 240 frames
	if !near(left[999], 0.25) {
		t.Errorf("effects muted: %g, want 0.25 (music only)", left[999])
	}
	p.SetBusMute(audio.Effects, false)
	p.SetBusVolume(audio.Master, 2, 0)
	p.SetVolume(mv, 1, 0)
	left, _ = render(m, 1000, 100)
	if !near(left[999], 1) {
		t.Errorf("master 2 × (0.25 + 0.5×1) = %g, want 1 (clamped at 1.5)", left[999])
	}
	p.SetBusVolume(audio.Master, 4, 0)
	left, _ = render(m, 100, 100)
	if left[50] != 1 {
		t.Errorf("output %g, want clamped to 1", left[50])
	}
}

func TestPanAndSpeed(t *testing.T) {
	m := newMixer(t, options())
	p := m.Player()
	params := audio.DefaultParams()
	params.Pan = 0.5
	if _, err := p.Play(constant(t, 10, 1), atFrame(0), params); err != nil {
		t.Fatal(err)
	}
	left, right := render(m, 20, 20)
	if left[5] != 0.5 || right[5] != 1 {
		t.Errorf("pan 0.5: (%g, %g), want (0.5, 1)", left[5], right[5])
	}

	m = newMixer(t, options())
	params = audio.DefaultParams()
	params.Speed = 2
	if _, err := m.Player().Play(rampSound(t, 100), atFrame(0), params); err != nil {
		t.Fatal(err)
	}
	left, _ = render(m, 60, 7)
	for i := 0; i < 50; i++ {
		if want := float32(2*i+1) / 1024; !near(left[i], want) {
			t.Fatalf("speed 2: frame %d = %g, want %g (source frame %d)", i, left[i], want, 2*i)
		}
	}
	if left[50] != 0 {
		t.Errorf("speed 2: a 100-frame sound lasts %d frames, want 50", firstZeroFrom(left, 0))
	}

	m = newMixer(t, options())
	params.Speed = 0.5
	m.Player().Play(rampSound(t, 100), atFrame(0), params)
	left, _ = render(m, 10, 10)
	for i := 0; i < 10; i++ {
		// Linear interpolation halfway between frames on odd outputs.
		want := (float32(i/2+1) + float32(i%2)*0.5) / 1024
		if !near(left[i], want) {
			t.Fatalf("speed 0.5: frame %d = %g, want %g", i, left[i], want)
		}
	}
}

func firstZeroFrom(s []float32, from int) int {
	for i := from; i < len(s); i++ {
		if s[i] == 0 {
			return i
		}
	}
	return len(s)
}

func TestVoiceLimitAndStealing(t *testing.T) {
	o := options()
	o.MaxVoices = 3
	tests := []struct {
		name        string
		priorities  []int8 // of the three busy voices, started at frames 0, 10, 20
		loops       []bool
		newPriority int8
		wantVictim  int // index of the stolen voice, -1 refused
	}{
		{"oldest of equals", []int8{0, 0, 0}, []bool{false, false, false}, 0, 0},
		{"lowest priority first", []int8{0, -1, 0}, []bool{false, false, false}, 0, 1},
		{"one-shot before loop", []int8{0, 0, 0}, []bool{true, false, false}, 0, 1},
		{"refused when all outrank", []int8{1, 2, 1}, []bool{false, false, false}, 0, -1},
		{"higher priority steals", []int8{1, 2, 1}, []bool{false, false, false}, 3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMixer(t, o)
			p := m.Player()
			levels := []float32{1.0 / 8, 1.0 / 4, 1.0 / 2}
			for k := range 3 {
				params := audio.DefaultParams()
				params.Priority, params.Loop = tt.priorities[k], tt.loops[k]
				if _, err := p.Play(constant(t, 48000, levels[k]), atFrame(10*k), params); err != nil {
					t.Fatal(err)
				}
			}
			render(m, 100, 100)
			params := audio.DefaultParams()
			params.Priority = tt.newPriority
			p.Play(constant(t, 48000, 1.0/16), atFrame(100), params)
			left, _ := render(m, 200, 10)
			if tt.wantVictim >= 0 {
				// The stolen voice fades out over 2 ms (96 frames), no click.
				want := float32(1.0/8+1.0/4+1.0/2+1.0/16) - levels[tt.wantVictim]/96
				if !near(left[1], want) {
					t.Errorf("frame 1 after stealing = %g, want %g (the victim one frame into its fade)", left[1], want)
				}
			}
			want := float32(1.0/8 + 1.0/4 + 1.0/2)
			st := m.Stats()
			if tt.wantVictim >= 0 {
				want += 1.0/16 - levels[tt.wantVictim]
				if st.Stolen != 1 || st.Refused != 0 {
					t.Errorf("stolen/refused = %d/%d, want 1/0", st.Stolen, st.Refused)
				}
			} else if st.Stolen != 0 || st.Refused != 1 {
				t.Errorf("stolen/refused = %d/%d, want 0/1", st.Stolen, st.Refused)
			}
			if left[150] != want {
				t.Errorf("mix %g, want %g", left[150], want)
			}
			if st.Voices != 3 || st.PeakVoices != 3 {
				t.Errorf("voices %d (peak %d), want 3 (3)", st.Voices, st.PeakVoices)
			}
		})
	}
}

func TestSkipMovesTimeline(t *testing.T) {
	m := newMixer(t, options())
	render(m, 1000, 100)
	// A sound placed at frame 3000; the device loses 1500 frames. Frames
	// after the gap keep their places: the sound starts 500 frames into
	// the next render, not 2000.
	m.Player().Play(constant(t, 10, 1), atFrame(3000), audio.DefaultParams())
	m.Skip(1500)
	left, _ := render(m, 1000, 100)
	if got := firstNonZero(left); got != 500 {
		t.Errorf("starts %d frames after the gap, want 500", got)
	}
	if st := m.Stats(); st.Underruns != 1 || st.SkippedFrames != 1500 || st.Frames != 3500 {
		t.Errorf("underruns %d, skipped %d, frames %d; want 1, 1500, 3500", st.Underruns, st.SkippedFrames, st.Frames)
	}
}

func TestStaleVoiceIgnored(t *testing.T) {
	m := newMixer(t, options())
	p := m.Player()
	v, _ := p.Play(constant(t, 10, 1), atFrame(0), audio.DefaultParams())
	render(m, 100, 100)
	w, _ := p.Play(constant(t, 1000, 0.5), atFrame(100), audio.DefaultParams())
	// v has ended; changing it must not touch w, which took its slot.
	p.SetVolume(v, 0, 0)
	p.Stop(v, atFrame(0), 0)
	left, _ := render(m, 100, 100)
	if left[10] != 0.5 {
		t.Errorf("a change to a finished voice reached another: %g, want 0.5", left[10])
	}
	if v == w || v.IsZero() || !(audio.Voice{}).IsZero() {
		t.Error("voices must be distinct and non-zero")
	}
}

func TestValidation(t *testing.T) {
	o := audio.Options{Rate: 1, Latency: -1, Tolerance: -1, MaxVoices: 0, MaxStreams: -1, QueueSize: 1, StreamBuffer: 0}
	err := o.Validate()
	for _, field := range []string{"Rate", "Latency", "Tolerance", "MaxVoices", "MaxStreams", "QueueSize", "StreamBuffer"} {
		if err == nil || !contains(err.Error(), "Options."+field) {
			t.Errorf("Validate() = %v, want a complaint about %s", err, field)
		}
	}
	m := newMixer(t, options())
	bad := audio.Params{Bus: audio.Master, Volume: 9, Pan: 2, Speed: 0, FadeIn: -1}
	_, err = m.Player().Play(constant(t, 1, 1), atFrame(0), bad)
	for _, field := range []string{"Bus", "Volume", "Pan", "Speed", "FadeIn"} {
		if err == nil || !contains(err.Error(), "Params."+field) {
			t.Errorf("Play with bad params = %v, want a complaint about %s", err, field)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestQueueFull(t *testing.T) {
	o := options()
	o.QueueSize = 16
	m := newMixer(t, o)
	s := constant(t, 1, 1)
	var full int
	for range 20 {
		if _, err := m.Player().Play(s, atFrame(0), audio.DefaultParams()); err == audio.ErrQueueFull {
			full++
		}
	}
	if full != 4 || m.Stats().QueueFull != 4 {
		t.Errorf("%d refused (stats %d), want 4 of 20 with room for 16", full, m.Stats().QueueFull)
	}
	render(m, 10, 10)
	if _, err := m.Player().Play(s, atFrame(10), audio.DefaultParams()); err != nil {
		t.Errorf("after a render the queue takes requests again: %v", err)
	}
}

func TestBusFadeEndsOnItsFrame(t *testing.T) {
	m := newMixer(t, options())
	p := m.Player()
	p.Play(constant(t, 48000, 1), atFrame(0), audio.DefaultParams())
	render(m, 10, 10)
	// 1 ms is 48 frames; rendered in blocks of 20, the ramp ends mid-block.
	p.SetBusVolume(audio.Effects, 0, time.Millisecond)
	left, _ := render(m, 60, 20)
	for i, got := range left {
		want := max(0, 1-float32(i)/48)
		if !near(got, want) {
			t.Fatalf("frame %d of the fade = %g, want %g", i, got, want)
		}
	}
}

func TestNilPlayerIsSilent(t *testing.T) {
	var p *audio.Player
	v, err := p.Play(constant(t, 1, 1), atFrame(0), audio.DefaultParams())
	if err != nil || !v.IsZero() {
		t.Errorf("Play on a nil Player = %v, %v; want a zero Voice and no error", v, err)
	}
	st, err := p.OpenStream(nil, "music.ogg")
	if st != nil || err != nil {
		t.Errorf("OpenStream on a nil Player = %v, %v; want nil, nil", st, err)
	}
	if _, err := p.PlayStream(st, atFrame(0), audio.DefaultParams()); err != nil {
		t.Error(err)
	}
	for _, err := range []error{p.Stop(v, atFrame(0), 0), p.SetVolume(v, 1, 0), p.SetPan(v, 0), p.SetSpeed(v, 1), p.SetBusVolume(audio.Music, 1, 0), p.SetBusMute(audio.UI, true), st.Close(), st.Err()} {
		if err != nil {
			t.Error(err)
		}
	}
}
