package main

import (
	"errors"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
)

// sounds are the duel's effects, generated with audio.Synth as Breakout's
// are: no sound files to ship.
type sounds struct {
	shot, hit, round assets.Sound
}

func makeSounds(lib *assets.Library) (sounds, error) {
	blip := func(name string, wave audio.Wave, from, to float64, d time.Duration) (assets.Sound, error) {
		s, err := audio.Synth{Wave: wave, Freq: from, EndFreq: to, Amplitude: 0.25,
			Duration: d, Rate: 48000, Release: d / 2}.Sound(name)
		if err != nil {
			return assets.Sound{}, err
		}
		return lib.AddSound(s)
	}
	var s sounds
	var e [3]error
	s.shot, e[0] = blip("shot", audio.Square, 880, 440, 50*time.Millisecond)
	s.hit, e[1] = blip("hit", audio.Saw, 220, 60, 250*time.Millisecond)
	s.round, e[2] = blip("round", audio.Sine, 440, 1320, 400*time.Millisecond)
	return s, errors.Join(e[:]...)
}

// play starts an effect at the tick's moment. In a networked match a tick
// run again after a rollback asks again, and the ECS matches the request
// to the voice already playing instead of playing it twice.
func (g *game) play(ctx *ecs.Sys, s assets.Sound) {
	_, _ = ctx.PlaySound(s, audio.DefaultParams())
}
