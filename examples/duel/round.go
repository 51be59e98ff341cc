package main

import "github.com/metronome-go/metronome/ecs"

// Round is the match's state, a world resource registered for the world
// hash (and so for snapshots): the points of the round under way, the
// rounds each player has won, the round's number and its ticks left.
type Round struct {
	Score  [2]int32
	Wins   [2]int32
	Number int32
	Left   int32
}

// tickRound runs the round's clock. When it runs out, the player with
// more points wins the round (a draw goes to neither), and a new round
// starts with both ships at their sides and no shot in the air.
func (g *game) tickRound(ctx *ecs.Sys) {
	r := g.round
	if r.Left--; r.Left > 0 {
		return
	}
	switch {
	case r.Score[0] > r.Score[1]:
		r.Wins[0]++
	case r.Score[1] > r.Score[0]:
		r.Wins[1]++
	}
	r.Score = [2]int32{}
	r.Number++
	r.Left = g.roundTicks
	q := g.shots.Query()
	for q.Next() {
		ctx.Commands.Despawn(q.Entity())
	}
	sq := g.ships.Query()
	for sq.Next() {
		t, s := sq.Get()
		t.Position, t.Rotation = spawnAt[s.Player], facings[spawnFace[s.Player]].rot
		s.Facing, s.Reload, s.Flash = spawnFace[s.Player], 0, 0
		t.Teleport()
	}
	g.play(ctx, g.sounds.round)
}
