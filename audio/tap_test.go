package audio_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
)

// A tapped player hands the tap every request it sends, and still plays
// through its mixer; a tapped nil player plays nothing but numbers its
// voices, so a stop names the voice its play started.
func TestTappedPlayerSeesEveryRequest(t *testing.T) {
	s := constant(t, 100, 0.5)
	for _, name := range []string{"mixer", "silent"} {
		t.Run(name, func(t *testing.T) {
			var m *audio.Mixer
			var base *audio.Player
			if name == "mixer" {
				m = newMixer(t, options())
				base = m.Player()
			}
			var got []audio.Request
			p := base.Tapped(func(r audio.Request) { got = append(got, r) })
			at := audio.AtInstant(instant(0))
			loop := audio.DefaultParams()
			loop.Loop = true
			v, err := p.Play(s, at, loop)
			if err != nil || v.IsZero() {
				t.Fatalf("Play: %v, %v", v, err)
			}
			if err := p.Stop(v, at.Later(time.Millisecond), 0); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Play(s, at, audio.Params{Volume: -1, Speed: 1}); err == nil {
				t.Fatal("Play with volume -1 succeeded")
			}
			if len(got) != 2 || got[0].Kind != audio.RequestPlay || got[0].Sound != s || !got[0].Params.Loop ||
				got[1].Kind != audio.RequestStop || got[1].Voice != v || got[1].Voice.ID() != v.ID() {
				t.Fatalf("the tap saw %+v", got)
			}
			if got[0].Kind.String() != "play" || got[1].Kind.String() != "stop" {
				t.Fatalf("kinds %v, %v", got[0].Kind, got[1].Kind)
			}
			if m != nil {
				render(m, 4800, 480)
				if st := m.Stats(); st.Placed != 1 {
					t.Fatalf("the mixer placed %d voices, want 1: %+v", st.Placed, st)
				}
			}
		})
	}
}
