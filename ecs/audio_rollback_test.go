package ecs_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/timing"
)

// Ticks 0-4 run on a prediction that shoots on ticks 2 and 3; a rollback
// runs ticks 2-4 again on the confirmed input, which shoots on tick 2
// only. Tick 3's blip (made by both runs) and tick 2's shot are matched to
// the voices already playing; tick 3's shot, which the confirmed timeline
// does not make, fades out. Nothing plays twice.
func TestRollbackMatchesSoundsAndStopsUnmadeOnes(t *testing.T) {
	var shot, blip assets.Sound
	shoots := map[uint64]bool{2: true, 3: true}
	r := newAudioRig(t, func(r *audioRig) {
		shot = r.sound("shot", audioRate, 0.25)
		blip = r.sound("blip", audioRate, 0.125)
		r.app.AddSystem(ecs.Update, ecs.System{Name: "shoot", Run: func(ctx *ecs.Sys) {
			n := ctx.Time.Number
			if shoots[n] {
				if _, err := ctx.PlaySound(shot, audio.DefaultParams()); err != nil {
					ctx.Fail(err)
				}
			}
			if n == 3 {
				if _, err := ctx.PlaySound(blip, audio.DefaultParams()); err != nil {
					ctx.Fail(err)
				}
			}
		}})
	})
	for n := range 5 {
		r.tick(time.Duration(n)*audioStep, false)
	}
	shoots[3] = false
	r.au.BeginRollback(2)
	r.next = 2
	for n := 2; n < 5; n++ {
		r.tick(time.Duration(n)*audioStep, false)
	}
	r.au.EndRollback(audio.AtInstant(audioOrigin+timing.Instant(200*time.Millisecond)), 0)

	if st := r.au.Stats(); st.Matched != 2 || st.Unmade != 1 || st.Played != 5 {
		t.Errorf("audio stats: %d matched, %d unmade, %d requests; want 2, 1, 5", st.Matched, st.Unmade, st.Played)
	}
	left, _ := r.render(frameAt(400 * time.Millisecond))
	if st := r.m.Stats(); st.Placed != 3 {
		t.Errorf("mixer placed %d sounds, want 3 (none twice)", st.Placed)
	}
	if got, want := left[frameAt(100*time.Millisecond)], float32(0.625); got != want {
		t.Errorf("at 100 ms: %g, want both shots and the blip (%g)", got, want)
	}
	if got, want := left[len(left)-1], float32(0.375); got != want {
		t.Errorf("at 400 ms: %g, want tick 2's shot and the blip (%g): tick 3's shot faded out", got, want)
	}
}
