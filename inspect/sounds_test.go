package inspect

import (
	"testing"

	"github.com/metronome-go/metronome/audio"
)

// A stop names the sound its voice started, found from the play the list
// already holds; a voice the session did not start stops unnamed.
func TestSoundsNameAStopByItsPlay(t *testing.T) {
	hit, err := audio.NewSound("hit", 48000, 1, make([]float32, 16))
	if err != nil {
		t.Fatal(err)
	}
	s := NewSounds()
	p := (*audio.Player)(nil).Tapped(s.Tap)
	v, err := p.Play(hit, audio.At{}, audio.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Play(hit, audio.At{}, audio.DefaultParams()); err != nil {
		t.Fatal(err)
	}
	if err := p.SetBusMute(audio.Music, true); err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(v, audio.At{}, 0); err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(audio.Voice{}, audio.At{}, 0); err != nil {
		t.Fatal(err)
	}
	var stops []Sound
	for _, e := range s.list {
		if e.Kind == "stop" {
			stops = append(stops, e.Sound)
		}
	}
	if len(stops) != 2 || stops[0].Name != "hit" || stops[0].Voice != v.ID() || stops[1].Name != "" {
		t.Errorf("stops %+v: want the first naming %q (voice %d), the second unnamed", stops, "hit", v.ID())
	}
}
