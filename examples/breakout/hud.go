package main

import (
	"strconv"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
)

// Label is a component naming what a text entity shows.
type Label struct {
	Shows labelKind
}

type labelKind uint8

const (
	scoreLabel labelKind = iota
	livesLabel
	bannerLabel
)

// hudLayer draws text above every sprite.
const hudLayer = 10

// spawnHUD spawns the three texts: score on the left, lives on the right
// of the top line, and the banner in the middle of the field.
func (g *game) spawnHUD(ctx *ecs.Sys) {
	add := func(x, y float32, font assets.Font, width float32, align assets.Align, shows labelKind) {
		e := ctx.Commands.Spawn()
		ecs.With(e, ecs.At(x, y))
		ecs.With(e, ecs.Text{Font: font, Width: width, Align: align, Layer: hudLayer}) // white
		ecs.With(e, Label{Shows: shows})
	}
	add(16, 12, g.hudFont, 0, assets.AlignLeft, scoreLabel)
	add(16, 12, g.hudFont, fieldW-32, assets.AlignRight, livesLabel)
	add(0, 300, g.bannerFont, fieldW, assets.AlignCenter, bannerLabel)
	g.makeBanners()
}

// banners are the messages the screens show, made at the first tick from
// the keys start and pause are bound to then: the registration's in
// game.go, or a player's [input.bindings], so the banner never names a key
// the game does not listen to.
type banners [Won + 1]string

// makeBanners writes the messages with the first key of start and pause.
func (g *game) makeBanners() {
	key := func(act input.Action, none string) string {
		if names := g.actions.BindingNames(act, false); len(names) > 0 {
			return names[0]
		}
		return none
	}
	start, pause := key(g.start, "start"), key(g.pause, "pause")
	g.banners = banners{
		Title:    "BREAKOUT\npress " + start,
		Paused:   "paused: " + pause + " to resume",
		GameOver: "game over: " + start + " to play again",
		Won:      "you won! " + start + " to play again",
	}
}

// updateHUD writes the score, the lives and the banner. It is cosmetic:
// in a burst of catch-up ticks only the last one runs it.
func (g *game) updateHUD(ctx *ecs.Sys) {
	p := g.progress
	q := g.texts.Query()
	for q.Next() {
		text, l := q.Get()
		switch l.Shows {
		case scoreLabel:
			text.Content = set(text.Content, "SCORE ", p.Score)
		case livesLabel:
			text.Content = set(text.Content, "LIVES ", p.Lives)
		case bannerLabel:
			text.Content = g.banners[g.screens.Current()]
		}
	}
}

// set returns prefix and n as text, reusing old when it already says so:
// a HUD that does not change allocates nothing.
func set(old, prefix string, n int) string {
	var buf [32]byte
	b := strconv.AppendInt(append(buf[:0], prefix...), int64(n), 10)
	if string(b) == old {
		return old
	}
	return string(b)
}
