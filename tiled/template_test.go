package tiled_test

import (
	"testing"
	"testing/fstest"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/tiled"
)

// TestTemplates loads Tiled's sticker-knight example, whose hero, blocks
// and diamonds are template instances, and maps of both formats whose
// instances override some of their template's attributes.
func TestTemplates(t *testing.T) {
	m, err := tiled.Load(testFS, "tiled/sticker-knight/sandbox.tmx", tiled.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var game *tiled.Layer
	for i := range m.Layers {
		if m.Layers[i].Name == "game" {
			game = &m.Layers[i]
		}
	}
	if game == nil || len(game.Objects) != 9 {
		t.Fatalf("game layer %+v", game)
	}
	hero, block := game.Objects[0], game.Objects[1]
	if hero.ID != 58 || hero.Name != "hero" || hero.Class != "hero" || hero.GID != 22 || hero.Shape != tiled.TileObject ||
		hero.Width != 128 || hero.Height != 160 || hero.X != 45 || hero.Y != 979.5 || hero.Template != "tiled/sticker-knight/templates/hero.tx" {
		t.Errorf("hero = %+v", hero)
	}
	if f, _ := block.Properties.Float("density"); block.Name != "block" || block.GID != 44 || f != 2 || block.Properties.String("bodyType") != "dynamic" {
		t.Errorf("block = %+v", block)
	}
	if d := game.Objects[3]; d.Class != "coin" || d.GID != 17 || d.Bounds() != geom.R(238, 947.5-64, 64, 64) {
		t.Errorf("diamond = %+v", d)
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
