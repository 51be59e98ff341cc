package tiled_test

import (
	"testing"
	"testing/fstest"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/tiled"
)

// TestTemplates loads maps Tiled 1.8.2 wrote from own/templated.tmx,
// whose coins are instances of own/coin.tx (one overriding its size and a
// property) beside a tile of an image-collection tileset, and maps of both
// formats whose instances override some of their template's attributes.
func TestTemplates(t *testing.T) {
	for _, name := range []string{"tiled/templated.tmx", "tiled/templated.tmj"} {
		m, err := tiled.Load(testFS, name, tiled.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Tilesets) != 2 || len(m.Layers) != 2 || len(m.Layers[1].Objects) != 3 {
			t.Fatalf("%s: %d tilesets, %d layers", name, len(m.Tilesets), len(m.Layers))
		}
		o := m.Layers[1].Objects
		if c := o[0]; c.Name != "coin" || c.Class != "pickup" || c.GID != 2 || c.Bounds() != geom.R(0, 16, 16, 16) ||
			c.Template != "own/coin.tx" || c.Properties.String("value") != "1" {
			t.Errorf("%s: coin = %+v", name, c)
		}
		if c := o[1]; c.Name != "big coin" || c.Class != "pickup" || c.GID != 2 || c.Bounds() != geom.R(16, 0, 32, 32) ||
			c.Properties.String("value") != "5" || len(c.Properties) != 1 {
			t.Errorf("%s: big coin = %+v", name, c)
		}
		props := m.Tilesets[1]
		if props.Name != "props" || props.FirstGID != 5 || props.Columns != 0 || props.TileCount != 2 || props.Tile(0).Properties.String("kind") != "terrain" {
			t.Errorf("%s: props tileset %+v", name, props)
		}
		if img, r := props.TileImage(1); img.Source != "own/sky.png" || img.Width != 8 || r != geom.R(0, 0, 8, 8) {
			t.Errorf("%s: TileImage(1) = %+v %v", name, img, r)
		}
		if d := o[2]; d.GID != 5 || d.Shape != tiled.TileObject || d.Bounds() != geom.R(32, 16, 32, 32) {
			t.Errorf("%s: prop = %+v", name, d)
		}
	}

	tsx := `<tileset name="a" tilewidth="8" tileheight="8" tilecount="4" columns="2"><image source="a.png" width="16" height="16"/></tileset>`
	fsys := fstest.MapFS{
		"a.tsx":     {Data: []byte(tsx)},
		"a.tsj":     {Data: []byte(`{"type":"tileset","name":"a","tilewidth":8,"tileheight":8,"tilecount":4,"columns":2,"image":"a.png"}`)},
		"t/coin.tx": {Data: []byte(`<template><tileset firstgid="1" source="../a.tsx"/><object name="coin" type="pickup" gid="3" width="8" height="8"><properties><property name="value" type="int" value="1"/><property name="sound" value="ding"/></properties></object></template>`)},
		"t/coin.tj": {Data: []byte(`{"type":"template","tileset":{"firstgid":1,"source":"../a.tsj"},"object":{"name":"coin","type":"pickup","gid":3,"width":8,"height":8,"properties":[{"name":"value","type":"int","value":1},{"name":"sound","type":"string","value":"ding"}]}}`)},
		"t/zone.tx": {Data: []byte(`<template><object name="zone" width="30" height="20"><ellipse/></object></template>`)},
		"m.tmx": {Data: []byte(`<map orientation="orthogonal" width="2" height="2" tilewidth="8" tileheight="8">
 <tileset firstgid="1" name="other" tilewidth="8" tileheight="8" tilecount="10" columns="10"/>
 <tileset firstgid="11" source="a.tsx"/>
 <objectgroup name="o">
  <object id="1" template="t/coin.tx" x="4" y="8"/>
  <object id="2" template="t/coin.tx" name="big coin" x="20" y="8" width="16" height="16" visible="0"><properties><property name="value" type="int" value="5"/><property name="extra" type="bool" value="true"/></properties></object>
  <object id="3" template="t/zone.tx" x="1" y="2"/>
 </objectgroup>
</map>`)},
		"m.tmj": {Data: []byte(`{"type":"map","orientation":"orthogonal","width":2,"height":2,"tilewidth":8,"tileheight":8,
 "tilesets":[{"firstgid":1,"name":"other","tilewidth":8,"tileheight":8,"tilecount":10,"columns":10},{"firstgid":11,"source":"a.tsj"}],
 "layers":[{"type":"objectgroup","name":"o","objects":[
  {"id":1,"template":"t/coin.tj","x":4,"y":8},
  {"id":2,"template":"t/coin.tj","name":"big coin","x":20,"y":8,"width":16,"height":16,"visible":false,"properties":[{"name":"value","type":"int","value":5},{"name":"extra","type":"bool","value":true}]}]}]}`)},
	}
	for _, name := range []string{"m.tmx", "m.tmj"} {
		m, err := tiled.Load(fsys, name, tiled.Options{})
		if err != nil {
			t.Fatal(err)
		}
		o := m.Layers[0].Objects
		// The template's GID 3 counts from its tileset's firstgid 1; the
		// map lists that tileset at 11, so the tile is GID 13.
		if c := o[0]; c.Name != "coin" || c.Class != "pickup" || c.GID != 13 || c.Width != 8 || !c.Visible || c.Properties.String("value") != "1" {
			t.Errorf("%s: coin = %+v", name, c)
		}
		if c := o[1]; c.Name != "big coin" || c.Class != "pickup" || c.GID != 13 || c.Width != 16 || c.Visible ||
			c.Properties.String("value") != "5" || !c.Properties.Bool("extra") || c.Properties.String("sound") != "ding" || len(c.Properties) != 3 {
			t.Errorf("%s: big coin = %+v", name, c)
		}
		if name == "m.tmx" {
			if z := o[2]; z.Shape != tiled.Ellipse || z.Bounds() != geom.R(1, 2, 30, 20) || z.Name != "zone" {
				t.Errorf("zone = %+v", z)
			}
		}
	}
}
