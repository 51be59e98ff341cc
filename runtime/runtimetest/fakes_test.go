package runtimetest_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime/runtimetest"
)

// RequestClose is one press: true at the first poll at or after its
// instant, false again at the next; presses never merge into one long
// intent.
func TestDisplayRequestClose(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	tests := []struct {
		name    string
		presses []time.Duration
		polls   []time.Duration
		want    []bool
	}{
		{"one press", []time.Duration{ms(10)}, []time.Duration{ms(5), ms(10), ms(14), ms(18)}, []bool{false, true, false, false}},
		{"between polls", []time.Duration{ms(7)}, []time.Duration{ms(4), ms(8), ms(12)}, []bool{false, true, false}},
		{"at consecutive polls", []time.Duration{ms(4), ms(8)}, []time.Duration{ms(4), ms(8), ms(12), ms(16)}, []bool{true, false, true, false}},
		{"due at the same poll", []time.Duration{ms(5), ms(6)}, []time.Duration{ms(4), ms(8), ms(12)}, []bool{false, true, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := runtimetest.NewClock()
			d := runtimetest.NewDisplay(clock)
			for _, p := range tc.presses {
				d.RequestClose(clock.At(p))
			}
			var got []bool
			for _, p := range tc.polls {
				clock.Set(clock.At(p))
				d.PollEvents()
				got = append(got, d.State().CloseRequested)
			}
			for i := range tc.want {
				if got[i] != tc.want[i] {
					t.Errorf("CloseRequested at the polls %v: got %v, want %v", tc.polls, got, tc.want)
					break
				}
			}
		})
	}
}

func TestDisplayWindowFacts(t *testing.T) {
	clock := runtimetest.NewClock()
	d := runtimetest.NewDisplay(clock)
	d.ContentScale(clock.At(time.Millisecond), input.Scale{X: 2, Y: 2}).Minimize(clock.At(time.Millisecond), true).Hide(clock.At(2 * time.Millisecond))
	d.PollEvents()
	if s := d.State(); s != runtimetest.DefaultWindow {
		t.Errorf("before the events: %+v, want the default window", s)
	}
	clock.Set(clock.At(2 * time.Millisecond))
	d.PollEvents()
	s := d.State()
	if s.Scale != (input.Scale{X: 2, Y: 2}) || !s.Minimized || !s.Hidden || s.Visible() {
		t.Errorf("after the events: %+v, want scale 2, minimised, hidden", s)
	}
	if err := d.SetFullscreen(true); err != nil || !d.State().Fullscreen {
		t.Errorf("SetFullscreen(true): %v, state %+v", err, d.State())
	}
	if got := d.FullscreenCalls(); len(got) != 1 || !got[0] {
		t.Errorf("FullscreenCalls %v, want [true]", got)
	}
}
