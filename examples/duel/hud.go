package main

import (
	"strconv"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/render2d"
)

// Label says what a HUD text shows.
type Label struct {
	Shows int32
}

const (
	leftLabel int32 = iota // player 1's points and rounds
	rightLabel
	clockLabel
	netLabel // a match's round trip, advantage, rollbacks and bandwidth
)

const hudLayer = 10

// spawnHUD spawns the three texts along the top of the arena.
func (g *game) spawnHUD(ctx *ecs.Sys) {
	add := func(x float32, align assets.Align, shows int32) {
		e := ctx.Commands.Spawn()
		t := ecs.At(x, 10)
		t.SetInterpolation(false)
		ecs.With(e, t)
		ecs.With(e, ecs.Text{Font: g.hudFont, Width: 300, Align: align, Layer: hudLayer})
		ecs.With(e, Label{Shows: shows})
	}
	add(16, assets.AlignLeft, leftLabel)
	add(arenaW-316, assets.AlignRight, rightLabel)
	add(arenaW/2-150, assets.AlignCenter, clockLabel)
	if _, ok := g.setup.NetStats(); ok {
		e := ctx.Commands.Spawn()
		t := ecs.At(16, arenaH-30)
		t.SetInterpolation(false)
		ecs.With(e, t)
		ecs.With(e, ecs.Text{Font: g.netFont, Width: arenaW - 32, Align: assets.AlignLeft, Layer: hudLayer, Color: netColor})
		ecs.With(e, Label{Shows: netLabel})
		// What only this machine measured: left out of the world hash.
		ecs.With(e, ecs.Unhashed{})
	}
}

var netColor = render2d.Color{R: 0.6, G: 0.6, B: 0.7, A: 1}

// netLine writes the match's figures, refreshed twice a second.
func (g *game) netLine(old string) string {
	ns, ok := g.setup.NetStats()
	if !ok || g.round.Left%30 != 0 || ns.Seconds == 0 {
		return old
	}
	var buf [160]byte
	b := buf[:0]
	if ns.RTT > 0 {
		b = append(b, "rtt "...)
		b = strconv.AppendInt(b, ns.RTT.Milliseconds(), 10)
		b = append(b, " ms   "...)
	}
	b = append(b, "advantage "...)
	b = strconv.AppendFloat(b, ns.Advantage, 'f', 1, 64)
	b = append(b, " ticks   rollbacks "...)
	b = strconv.AppendFloat(b, float64(ns.Rollbacks)/ns.Seconds, 'f', 1, 64)
	b = append(b, "/s, mean depth "...)
	b = strconv.AppendFloat(b, float64(ns.Resimulated)/max(1, float64(ns.Rollbacks)), 'f', 1, 64)
	b = append(b, "   "...)
	b = strconv.AppendInt(b, int64(float64(ns.BytesSent)/ns.Seconds), 10)
	b = append(b, " B/s out, "...)
	b = strconv.AppendInt(b, int64(float64(ns.BytesReceived)/ns.Seconds), 10)
	b = append(b, " B/s in"...)
	return string(b)
}

// updateHUD writes the points, the rounds won and the round's clock, and
// shows a hit ship in white. It runs on every tick (it is not cosmetic),
// so the texts, which are world state, are the same on every peer; a text
// is rewritten only when it changes, so a steady HUD allocates nothing.
func (g *game) updateHUD(ctx *ecs.Sys) {
	r := g.round
	q := g.texts.Query()
	for q.Next() {
		text, l := q.Get()
		var buf [48]byte
		b := buf[:0]
		switch l.Shows {
		case leftLabel, rightLabel:
			p := l.Shows
			b = append(b, "P"...)
			b = strconv.AppendInt(b, int64(p+1), 10)
			b = append(b, "  "...)
			b = strconv.AppendInt(b, int64(r.Score[p]), 10)
			b = append(b, "   rounds "...)
			b = strconv.AppendInt(b, int64(r.Wins[p]), 10)
		case netLabel:
			text.Content = g.netLine(text.Content)
			continue
		case clockLabel:
			secs := (int64(r.Left) + 59) / 60
			b = append(b, "ROUND "...)
			b = strconv.AppendInt(b, int64(r.Number), 10)
			b = append(b, "   "...)
			b = strconv.AppendInt(b, secs/60, 10)
			b = append(b, ':')
			if secs%60 < 10 {
				b = append(b, '0')
			}
			b = strconv.AppendInt(b, secs%60, 10)
		}
		if string(b) != text.Content {
			text.Content = string(b)
		}
	}
	sq := g.shipShapes.Query()
	for sq.Next() {
		s, sh := sq.Get()
		sh.Color = shipColors[s.Player]
		if s.Flash > 0 && s.Flash/5%2 == 0 {
			sh.Color = hitColor
		}
	}
}
