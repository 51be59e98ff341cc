package ecs_test

import (
	"fmt"
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

// loopTag names a looping source in TestRollbackSettlesLoopingSources.
type loopTag struct{ N int }

// Ticks 2-5 run on a prediction, then a rollback runs them again on the
// confirmed input, and tick 6 is the present. Loops B and D play from
// tick 1 on; on tick 3 both runs start loop C and stop loop D, the
// prediction also starts loop A and stops loop B, which the confirmed
// run does not. After the rollback B and C play, once each; A fades out;
// D, stopped by both runs, never plays again; and the ticks run again
// start no second copy of a loop already playing.
func TestRollbackSettlesLoopingSources(t *testing.T) {
	var loops [5]assets.Sound
	predicted := true
	r := newAudioRig(t, func(r *audioRig) {
		for n, v := range map[int]float32{1: 1.0 / 16, 2: 1.0 / 8, 3: 1.0 / 4, 4: 1.0 / 2} {
			loops[n] = r.sound(fmt.Sprintf("loop%d", n), 100, v)
		}
		tags := ecs.NewFilter1[loopTag](r.app.World())
		spawn := func(ctx *ecs.Sys, n int) {
			p := ctx.Commands.Spawn()
			ecs.With(p, loopTag{n})
			s := ecs.LoopingSource(loops[n])
			s.Positional = false
			ecs.With(p, s)
		}
		despawn := func(ctx *ecs.Sys, n int) {
			for q := tags.Query(); q.Next(); {
				if q.Get().N == n {
					ctx.Commands.Despawn(q.Entity())
				}
			}
		}
		r.app.AddSystem(ecs.Update, ecs.System{Name: "loops", Run: func(ctx *ecs.Sys) {
			switch ctx.Time.Number {
			case 1:
				spawn(ctx, 2) // B
				spawn(ctx, 4) // D
			case 3:
				spawn(ctx, 3) // C
				despawn(ctx, 4)
				if predicted {
					spawn(ctx, 1) // A
					despawn(ctx, 2)
				}
			}
		}})
	})
	for n := range 2 {
		r.tick(time.Duration(n)*audioStep, false)
	}
	var s ecs.Snapshot
	if err := r.app.Save(&s); err != nil {
		t.Fatal(err)
	}
	for n := 2; n < 6; n++ {
		r.tick(time.Duration(n)*audioStep, false)
	}
	if err := r.app.Restore(&s); err != nil {
		t.Fatal(err)
	}
	predicted = false
	r.au.BeginRollback(2)
	r.next = 2
	for n := 2; n < 7; n++ {
		r.tick(time.Duration(n)*audioStep, false)
	}
	present := 6 * audioStep
	r.au.EndRollback(audio.AtInstant(audioOrigin+timing.Instant(present)), 0)
	for n := 7; n < 12; n++ {
		r.tick(time.Duration(n)*audioStep, false)
	}

	fade := int(int64(ecs.DefaultRollbackFade) * audioRate / int64(time.Second))
	left, right := r.render(frameAt(12 * audioStep))
	for _, c := range []struct {
		from, to int
		want     float32
		what     string
	}{
		{frameAt(audioStep), frameAt(3 * audioStep), 0.625, "B and D, once each"},
		{frameAt(3 * audioStep), frameAt(present), 0.3125, "A and C, as the prediction played them before the rollback"},
		{frameAt(present) + fade + 1, frameAt(12 * audioStep), 0.375, "B and C, once each, as the confirmed run says"},
	} {
		for i := c.from; i < c.to; i++ {
			if left[i] != c.want || right[i] != c.want {
				t.Fatalf("frame %d = (%g, %g), want %g: %s (ticks at %d, %d, present at %d)", i, left[i], right[i], c.want, c.what, frameAt(audioStep), frameAt(3*audioStep), frameAt(present))
			}
		}
	}
	if st := r.au.Stats(); st.Sources != 2 {
		t.Errorf("%d sources with a voice after the rollback, want 2 (B and C)", st.Sources)
	}
}
