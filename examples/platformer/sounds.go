package main

import (
	"errors"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
)

// sounds are the game's effects, generated with audio.Synth: no sound
// files to ship.
type sounds struct {
	jump, coin, fall, exit assets.Sound
}

// makeSounds renders the effects and adds them to the library.
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
	var e [4]error
	s.jump, e[0] = blip("jump", audio.Square, 220, 660, 120*time.Millisecond)
	s.coin, e[1] = blip("coin", audio.Triangle, 988, 1319, 90*time.Millisecond)
	s.fall, e[2] = blip("fall", audio.Saw, 440, 60, 500*time.Millisecond)
	s.exit, e[3] = blip("exit", audio.Sine, 523, 1046, 600*time.Millisecond)
	return s, errors.Join(e[:]...)
}

// play starts an effect at the current tick's moment. A sound that cannot
// play (no device, too many voices) never stops the game.
func (g *game) play(ctx *ecs.Sys, s assets.Sound) {
	_, _ = ctx.PlaySound(s, audio.DefaultParams())
}
