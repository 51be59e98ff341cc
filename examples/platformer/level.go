package main

import (
	"embed"
	"fmt"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/tilemap"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/tiled"
)

// levels holds the Tiled map, its tileset and the tileset's image.
// Embedding them keeps the game one file to ship; maps load from any
// fs.FS, so a test can hand in another level.
//
//go:embed assets/level1.tmx assets/tiles.tsx assets/tiles.png
var levels embed.FS

// The map's layers and properties the game relies on: draw it in Tiled
// with these names.
const (
	groundLayer = "ground" // the tile layer the player stands on
	solidProp   = "solid"  // a tile's boolean property: the player collides with it
	startClass  = "start"  // a point object: where the player starts
	coinClass   = "coin"   // tile objects: coins, each worth its "value" property
	exitClass   = "exit"   // a tile object: reaching it ends the level
)

// mapLayer is the draw layer of the map's bottom layer; the player and
// the effects draw above the map's layers.
const (
	mapLayer      = -10
	playerLayer   = 5
	particleLayer = 6
	hudLayer      = 20
)

// level is a loaded map and what the game reads from it once: the
// collision rectangles, the start and the map's size. None of it changes
// during play, so none of it is game state.
type level struct {
	tm    *tilemap.Map
	solid []geom.Rect
	start geom.Vec2 // the player's feet at the start
	size  geom.Vec2 // the map in pixels
	coins int
	// playerGID is the tileset's player tile, drawn as the player's sprite.
	playerGID tiled.GID
}

// loadLevel loads the map name from the embedded files and reads what
// the game needs from it, refusing a map that lacks a part with an error
// that names the part.
func loadLevel(lib *assets.Library, name string) (*level, error) {
	tm, err := tilemap.Load(lib, levels, name, tiled.Options{})
	if err != nil {
		return nil, err
	}
	m := tm.Map
	lv := &level{tm: tm, size: geom.V(float32(m.Width*m.TileWidth), float32(m.Height*m.TileHeight))}
	var ok bool
	if lv.solid, ok = tm.SolidRects(groundLayer, solidProp); !ok {
		return nil, fmt.Errorf("platformer: map %s has no tile layer %q (the ground the player stands on)", name, groundLayer)
	}
	starts := 0
	for _, l := range m.Flatten() {
		for _, o := range l.Objects {
			switch o.Class {
			case startClass:
				lv.start = geom.V(o.X, o.Y)
				starts++
			case coinClass:
				lv.coins++
			}
		}
	}
	if starts != 1 {
		return nil, fmt.Errorf("platformer: map %s has %d objects of class %q, want exactly one (the player's start)", name, starts, startClass)
	}
	if len(m.Tilesets) == 0 {
		return nil, fmt.Errorf("platformer: map %s has no tileset", name)
	}
	lv.playerGID = tiled.GID(m.Tilesets[0].FirstGID + tilePlayer)
	return lv, nil
}

// spawnLevel queues the map's entities: chunks of tiles, and an entity
// with a tilemap.Object for each object (coins and the exit with their
// sprites).
func (g *game) spawnLevel(ctx *ecs.Sys) error {
	_, err := tilemap.Spawn(ctx.Commands, g.level.tm, tilemap.Options{Layer: mapLayer})
	return err
}

// clearLevel queues the despawn of the map's entities, for a fresh copy.
func (g *game) clearLevel(ctx *ecs.Sys) {
	q := g.objects.Query()
	for q.Next() {
		ctx.Commands.Despawn(q.Entity())
	}
	c := g.chunks.Query()
	for c.Next() {
		ctx.Commands.Despawn(c.Entity())
	}
}

// pickups collects the coins the player touches and ends the level at
// the exit. Objects are matched by their Tiled class.
func (g *game) pickups(ctx *ecs.Sys) {
	box, ok := g.playerBox()
	if !ok {
		return
	}
	g.progress.Ticks++
	q := g.objects.Query()
	for q.Next() {
		_, o := q.Get()
		if o.Class != coinClass && o.Class != exitClass || !box.Intersects(o.Bounds()) {
			continue
		}
		if o.Class == exitClass {
			g.screens.Set(Cleared)
			continue
		}
		value, ok := o.Properties.Int("value")
		if !ok || value < 1 {
			value = 1
		}
		g.progress.Coins += value
		g.sparkleAt(o.Bounds().Center())
		g.play(ctx, g.sounds.coin)
		ctx.Commands.Despawn(q.Entity())
	}
}
