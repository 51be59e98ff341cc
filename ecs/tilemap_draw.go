package ecs

import (
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// TileChunk is a piece of a map drawn as one: a square of a tile layer,
// the free tiles of a parallax object layer, or an image layer. Package
// ecs/tilemap spawns them from a Tiled map (tilemap.Spawn); a game may
// build its own. Each frame, [AddTileMaps]' extraction copies the packets
// of the chunks in a camera's view into its pass, moved by the layer's
// parallax, with animated tiles on their current frame. It is
// presentation: the world hash leaves it out. It is plain data, so that
// a snapshot carries a chunk whole to another process (a rejoining peer
// draws the map too). The map loader lives in its own package so that a
// game without tile maps links no map parser.
type TileChunk struct {
	PresentationOnly
	// Bounds is the box the packets cover, in world units before
	// parallax: the unit of culling.
	Bounds geom.Rect
	// Layer is the packets' draw layer.
	Layer int16
	// Parallax is the layer's scroll factor and Origin the world point
	// where every factor lines up (Tiled's parallax origin): the chunk is
	// drawn moved by (camera position - Origin) * (1 - Parallax).
	Parallax, Origin geom.Vec2
	// Hidden chunks are not drawn (Tiled's visibility of the layer).
	Hidden bool
	// MapLayer is the Tiled layer's name.
	MapLayer string
	// Packets are the chunk's quads, built once: drawn as they are but
	// for the parallax shift and the animated tiles' frames.
	Packets []render2d.DrawPacket2D
	// Anims are the animated tiles among Packets.
	Anims []TileAnim
}

// Len returns the number of packets (tiles) in the chunk.
func (c *TileChunk) Len() int { return len(c.Packets) }

// TileAnim is an animated tile of a chunk: the index of its packet in
// [TileChunk.Packets], and its frames, at least one.
type TileAnim struct {
	Packet int32
	Frames []TileFrame
}

// TileFrame is one frame of a tile animation resolved to its atlas
// region, and the end of its time within one period (the last frame's
// Until is the period).
type TileFrame struct {
	Texture render2d.TextureHandle
	Source  geom.Rect
	Until   time.Duration
}

// frameAt returns the frame showing t into the animation.
func frameAt(frames []TileFrame, t time.Duration) *TileFrame {
	period := frames[len(frames)-1].Until
	if period > 0 {
		t %= period
		for i := range frames {
			if t < frames[i].Until {
				return &frames[i]
			}
		}
	}
	return &frames[len(frames)-1]
}

// TileMapStats describe the latest frame's map drawing.
type TileMapStats struct {
	Chunks int // chunks drawn, summed over passes
	Culled int // chunks left out: outside a view, or hidden
	Tiles  int // packets written
}

// TileMaps is the resource [AddTileMaps] stores: it draws every
// [TileChunk] in the Extract stage.
type TileMaps struct {
	app    *App
	chunks *Filter1[TileChunk]
	stats  TileMapStats
}

// AddTileMaps makes an App draw the [TileChunk] entities (those
// tilemap.Spawn makes): a system of the Extract stage, run after the built-in extraction,
// copies the packets of each chunk in a camera's view into that camera's
// pass and sorts the pass by layer, so tiles fall between the sprites of
// lower and higher layers. Calling it again returns the same resource.
// Call it at set-up, from the goroutine that owns the App.
//
// Drawing a chunk costs a copy of its packets (and a move for parallax
// layers), with no per-tile entity to visit; chunks outside the view are
// skipped whole. A frame allocates nothing once the passes have grown.
func AddTileMaps(app *App) *TileMaps {
	w := app.world
	if t := GetResource[TileMaps](w); t != nil {
		return t
	}
	t := &TileMaps{app: app, chunks: NewFilter1[TileChunk](w)}
	AddResource(w, t)
	app.AddSystem(Extract, System{Name: "ecs.tilemaps", Run: t.draw})
	return t
}

// Stats returns the latest frame's figures.
func (t *TileMaps) Stats() TileMapStats { return t.stats }

func (t *TileMaps) draw(ctx *Sys) {
	t.stats = TileMapStats{}
	x := &t.app.extract
	passes := x.builtinPasses(ctx.Frame.Frame())
	if len(passes) != len(x.views) {
		return
	}
	now := ctx.Time.Game
	for i := range x.views {
		v := &x.views[i]
		pass := &passes[i]
		n0 := len(pass.Packets)
		cam := pass.Camera.Position
		prev := pass.PrevCamera
		last := int16(-1 << 15)
		if n0 > 0 {
			last = pass.Packets[n0-1].Layer
		}
		sorted := true
		q := t.chunks.Query()
		for q.Next() {
			c := q.Get()
			if c.Hidden {
				t.stats.Culled++
				continue
			}
			shift := parallaxShift(cam, c)
			var prevShift geom.Vec2
			moves := prev.Set && c.Parallax != geom.V(1, 1)
			if moves {
				prevShift = parallaxShift(prev.Position, c)
			}
			if v.cull && outsideBox(v, c.Bounds.Translate(shift)) && (!moves || outsideBox(v, c.Bounds.Translate(prevShift))) {
				t.stats.Culled++
				continue
			}
			n := len(pass.Packets)
			pass.Packets = append(pass.Packets, c.Packets...)
			out := pass.Packets[n:]
			for _, a := range c.Anims {
				if int(a.Packet) >= len(out) || len(a.Frames) == 0 {
					continue
				}
				f := frameAt(a.Frames, now)
				p := &out[a.Packet]
				p.Texture, p.Source = f.Texture, f.Source
			}
			if shift != (geom.Vec2{}) || moves {
				for j := range out {
					p := &out[j]
					if moves {
						p.Prev = render2d.Placement{Position: p.Transform.Position.Add(prevShift), Rotation: p.Transform.Rotation,
							Scale: p.Transform.Scale, Tint: p.Tint, Set: true}
					}
					p.Transform.Position = p.Transform.Position.Add(shift)
				}
			}
			if c.Layer < last {
				sorted = false
			}
			last = c.Layer
			t.stats.Chunks++
			t.stats.Tiles += len(out)
		}
		if !sorted {
			x.sortByLayer(pass.Packets)
		}
	}
}

// parallaxShift is how far a chunk is drawn from its place when the camera
// is at cam: not at all for a factor of 1, along with the camera for 0.
func parallaxShift(cam geom.Vec2, c *TileChunk) geom.Vec2 {
	if c.Parallax == geom.V(1, 1) {
		return geom.Vec2{}
	}
	d := cam.Sub(c.Origin)
	return geom.V(float32(d.X*(1-c.Parallax.X)), float32(d.Y*(1-c.Parallax.Y)))
}

// outsideBox reports whether box lies entirely outside the view.
func outsideBox(v *view, b geom.Rect) bool {
	return b.X > v.maxX || b.Y > v.maxY || b.X+b.W < v.minX || b.Y+b.H < v.minY
}
