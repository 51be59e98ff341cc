package audio_test

import (
	"errors"
	"os"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/media"
)

func TestStreamPlaysTheFileExactly(t *testing.T) {
	src := rampSound(t, 3000) // at the mixer's rate: no resampling
	fsys := fstest.MapFS{"music.wav": {Data: wavBytes(t, src)}}
	want, err := audio.LoadSound(fsys, "music.wav") // the same samples after 16-bit quantisation
	if err != nil {
		t.Fatal(err)
	}
	for _, loop := range []bool{false, true} {
		o := options()
		o.StreamBuffer = 20 * time.Millisecond // 960 frames: the ring wraps many times
		m := newMixer(t, o)
		p := m.Player()
		st, err := p.OpenStream(fsys, "music.wav")
		if err != nil {
			t.Fatal(err)
		}
		params := audio.DefaultParams()
		params.Bus, params.Loop = audio.Music, loop
		if _, err := p.PlayStream(st, atFrame(100), params); err != nil {
			t.Fatal(err)
		}
		if _, err := p.PlayStream(st, atFrame(100), params); !errors.Is(err, media.ErrInvalid) {
			t.Errorf("second PlayStream: %v, want ErrInvalid", err)
		}
		left, right := render(m, 100+3*3000, 256)
		for i := 0; i < len(left); i++ {
			var w float32
			switch {
			case i < 100:
			case loop || i < 3100:
				w = want.Samples()[(i-100)%3000]
			}
			if left[i] != w || right[i] != w {
				t.Fatalf("loop %v: frame %d = (%g, %g), want %g", loop, i, left[i], right[i], w)
			}
		}
		if s := m.Stats(); s.Starved != 0 || s.Streams != map[bool]int{false: 0, true: 1}[loop] {
			t.Errorf("loop %v: starved %d, streams %d", loop, s.Starved, s.Streams)
		}
		st.Close()
	}
}

func TestStreamResamplesAndStarves(t *testing.T) {
	ogg, err := os.ReadFile("testdata/tone.ogg")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"tone.ogg": {Data: ogg}}
	m := newMixer(t, options())
	st, err := m.Player().OpenStream(fsys, "tone.ogg")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m.Player().PlayStream(st, atFrame(0), audio.DefaultParams())
	// 300 ms at 44.1 kHz is 14400 frames at 48 kHz.
	left, _ := render(m, 20000, 480)
	last := 0
	for i, v := range left {
		if v != 0 {
			last = i
		}
	}
	if last < 14000 || last > 14500 {
		t.Errorf("tone ends at frame %d, want about 14400", last)
	}
	if s := m.Stats(); s.Streams != 0 || s.Starved != 0 {
		t.Errorf("stats %+v, want the stream finished, never starved", s)
	}

	// Without a pump the buffer runs dry: silence, counted, in place.
	m = newMixer(t, options())
	long := rampSound(t, 48000)
	st2, _ := m.Player().OpenStream(fstest.MapFS{"l.wav": {Data: wavBytes(t, long)}}, "l.wav")
	defer st2.Close()
	m.Player().PlayStream(st2, atFrame(0), audio.DefaultParams())
	buf := make([]float32, 2*1000)
	for range 60 { // past the 32768 frames buffered at open
		m.Render(buf) // no Pump
	}
	if s := m.Stats(); s.Starved == 0 || s.Streams != 1 {
		t.Errorf("stats %+v, want starved frames and the stream still playing", s)
	}
}

func TestStreamOpenErrors(t *testing.T) {
	m := newMixer(t, options())
	_, err := m.Player().OpenStream(fstest.MapFS{"x.ogg": {Data: []byte("OggS\x00garbage")}}, "x.ogg")
	var ae *media.Error
	if !errors.As(err, &ae) || ae.Path != "x.ogg" || !errors.Is(err, media.ErrCorrupt) {
		t.Errorf("OpenStream of garbage: %v, want ErrCorrupt naming x.ogg", err)
	}
	_, err = m.Player().OpenStream(fstest.MapFS{}, "none.ogg")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenStream of a missing file: %v, want ErrNotExist", err)
	}
}

func TestConcurrentProducers(t *testing.T) {
	// Several goroutines play while the device goroutine renders: every
	// request is accounted for exactly once. Run with -race.
	o := options()
	o.MaxVoices = 1024
	o.QueueSize = 1 << 16
	m := newMixer(t, o)
	s := constant(t, 10, 0.01)
	const producers, each = 4, 500
	var wg sync.WaitGroup
	var refused sync.Map
	for g := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range each {
				if _, err := m.Player().Play(s, atFrame(k), audio.DefaultParams()); err != nil {
					refused.Store([2]int{g, k}, err)
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	buf := make([]float32, 2*64)
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		m.Render(buf)
	}
	m.Render(buf)
	st := m.Stats()
	if got := st.Placed + st.Late + st.Dropped + st.Refused + st.QueueFull; got != producers*each {
		t.Errorf("placed+late+dropped+refused+queuefull = %d, want %d", got, producers*each)
	}
}
