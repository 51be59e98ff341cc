package main

import (
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/tilemap"
	"github.com/metronome-go/metronome/tiled"
)

// spin plays a tile's Tiled animation on the sprites of the tile objects
// made from it: tilemap.Spawn animates the tiles of tile layers, and a
// game animates its objects, here the coins, from the same frames.
type spin struct {
	frames []assets.Region
	until  []time.Duration // the end of each frame within one period
}

// spinOf resolves the animation of tile id of the map's first tileset;
// it needs the map's images uploaded (a Startup system). A tile without
// an animation gives no frames, and nothing spins.
func spinOf(tm *tilemap.Map, id int) (spin, error) {
	var s spin
	ts := tm.Map.Tilesets[0]
	t := ts.Tile(id)
	if t == nil {
		return s, nil
	}
	var end time.Duration
	for _, f := range t.Animation {
		r, err := tm.Region(tiled.GID(ts.FirstGID + uint32(f.TileID)))
		if err != nil {
			return spin{}, err
		}
		end += f.Duration
		s.frames = append(s.frames, r)
		s.until = append(s.until, end)
	}
	return s, nil
}

// at returns the frame showing at game time t.
func (s *spin) at(t time.Duration) assets.Region {
	period := s.until[len(s.until)-1]
	if period > 0 {
		t %= period
	}
	for i, u := range s.until {
		if t < u {
			return s.frames[i]
		}
	}
	return s.frames[len(s.frames)-1]
}

// spinCoins shows every coin on its animation's current frame. It is
// cosmetic: sprites are presentation, and a skipped tick only skips a
// frame change.
func (g *game) spinCoins(ctx *ecs.Sys) {
	if len(g.coinSpin.frames) == 0 {
		return
	}
	r := g.coinSpin.at(ctx.Time.Game)
	q := g.coins.Query()
	for q.Next() {
		s, o := q.Get()
		if o.Class == coinClass {
			s.SetRegion(r)
		}
	}
}
