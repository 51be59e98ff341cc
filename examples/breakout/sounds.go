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
	wall, paddle, brick, powerUp, lost assets.Sound
}

// makeSounds renders the effects and adds them to the library.
func makeSounds(lib *assets.Library) (sounds, error) {
	blip := func(name string, wave audio.Wave, from, to float64, d time.Duration) (assets.Sound, error) {
		s, err := audio.Synth{Wave: wave, Freq: from, EndFreq: to, Amplitude: 0.3,
			Duration: d, Rate: 48000, Release: d / 2}.Sound(name)
		if err != nil {
			return assets.Sound{}, err
		}
		return lib.AddSound(s)
	}
	var s sounds
	var e [5]error
	s.wall, e[0] = blip("wall", audio.Square, 330, 0, 30*time.Millisecond)
	s.paddle, e[1] = blip("paddle", audio.Square, 440, 0, 40*time.Millisecond)
	s.brick, e[2] = blip("brick", audio.Triangle, 880, 1320, 60*time.Millisecond)
	s.powerUp, e[3] = blip("power-up", audio.Sine, 440, 1760, 250*time.Millisecond)
	s.lost, e[4] = blip("lost", audio.Saw, 330, 80, 400*time.Millisecond)
	return s, errors.Join(e[:]...)
}

// play starts an effect at the current tick's moment. A sound that cannot
// play (no device, too many voices) never stops the game: the ECS Audio
// resource counts it in its Stats.
func (g *game) play(ctx *ecs.Sys, s assets.Sound) {
	_, _ = ctx.PlaySound(s, audio.DefaultParams())
}
