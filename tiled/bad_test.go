package tiled_test

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/klauspost/compress/zstd"

	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/tiled"
)

const tsx = `<tileset name="terrain" tilewidth="16" tileheight="16" tilecount="4" columns="2"><image source="t.png" width="32" height="32"/></tileset>`

// tmx is a 4x3 map with one tile layer named "ground" holding data, and
// the external tileset t.tsx (GIDs 1-4); orientation and attrs adjust it.
func tmx(orientation, attrs, data string) string {
	return fmt.Sprintf(`<?xml version="1.0"?>
<map orientation="%s" width="4" height="3" tilewidth="16" tileheight="16" %s>
 <tileset firstgid="1" source="t.tsx"/>
 <layer id="1" name="ground" width="4" height="3">%s</layer>
</map>`, orientation, attrs, data)
}

func tmj(layer string) string {
	return `{"type":"map","orientation":"orthogonal","width":4,"height":3,"tilewidth":16,"tileheight":16,
 "tilesets":[{"firstgid":1,"source":"t.tsj"}],
 "layers":[{"type":"tilelayer","name":"ground","width":4,"height":3,` + layer + `}]}`
}

func zlibB64(b []byte) string {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// zstdB64 compresses b into one zstd frame with its content size and no
// checksum, the form Tiled writes (ZSTD_compress), with a 1 MiB window.
func zstdB64(t *testing.T, b []byte) string {
	t.Helper()
	w, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false), zstd.WithWindowSize(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	return base64.StdEncoding.EncodeToString(w.EncodeAll(b, nil))
}

func gidBytes(gids ...uint32) []byte {
	b := make([]byte, 4*len(gids))
	for i, g := range gids {
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(g), byte(g>>8), byte(g>>16), byte(g>>24)
	}
	return b
}

func csv(n int) string {
	return `<data encoding="csv">` + strings.TrimSuffix(strings.Repeat("1,", n), ",") + `</data>`
}

func TestBadInput(t *testing.T) {
	twelve := gidBytes(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
	bomb := zlibB64(make([]byte, 8<<20)) // 8 MiB of zeros for a 48-byte layer
	zbomb := zstdB64(t, make([]byte, 64<<20))
	// A frame header asking for a 128 MiB window, then an empty last block.
	bigWindow := base64.StdEncoding.EncodeToString([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x88, 0x01, 0x00, 0x00})
	zdata := func(b64 string) string { return `<data encoding="base64" compression="zstd">` + b64 + `</data>` }
	tests := []struct {
		name     string
		file     string
		sentinel error
		want     []string // in the message
	}{
		{"missing tileset", strings.Replace(tmx("orthogonal", "", csv(12)), "t.tsx", "lost/nope.tsx", 1), fs.ErrNotExist,
			[]string{"tiled: load map maps/m.tmx:", "tileset maps/lost/nope.tsx"}},
		{"wrong encoding", tmx("orthogonal", "", `<data encoding="hex">00</data>`), media.ErrUnsupported,
			[]string{`tile layer "ground"`, `encoding "hex" (want csv or base64)`}},
		{"wrong compression", tmx("orthogonal", "", `<data encoding="base64" compression="lz4">AAAA</data>`), media.ErrUnsupported,
			[]string{`tile layer "ground"`, `compression "lz4" (want zlib, gzip, zstd or none)`}},
		{"truncated csv", tmx("orthogonal", "", csv(11)), media.ErrCorrupt,
			[]string{`tile layer "ground"`, "csv data holds 11 tiles, want width*height = 12"}},
		{"oversized csv", tmx("orthogonal", "", csv(13)), media.ErrCorrupt, []string{"holds 13 tiles, want width*height = 12"}},
		{"bad csv value", tmx("orthogonal", "", `<data encoding="csv">1,2,x,0,0,0,0,0,0,0,0,0</data>`), media.ErrCorrupt,
			[]string{`csv value 2 is "x", want a GID`}},
		{"short base64", tmx("orthogonal", "", `<data encoding="base64">`+base64.StdEncoding.EncodeToString(twelve[:44])+`</data>`), media.ErrCorrupt,
			[]string{"base64 data is 44 bytes, want width*height*4 = 48"}},
		{"bad base64", tmx("orthogonal", "", `<data encoding="base64">!!!!</data>`), media.ErrCorrupt, []string{"base64 data"}},
		{"truncated zlib", tmx("orthogonal", "", `<data encoding="base64" compression="zlib">`+zlibB64(twelve[:40])+`</data>`), media.ErrCorrupt,
			[]string{"zlib data inflates to 40 bytes, want width*height*4 = 48"}},
		{"oversized zlib", tmx("orthogonal", "", `<data encoding="base64" compression="zlib">`+zlibB64(append(twelve, 1, 0, 0, 0))+`</data>`), media.ErrTooLarge,
			[]string{"zlib data inflates past width*height*4 = 48 bytes"}},
		{"decompression bomb", tmx("orthogonal", "", `<data encoding="base64" compression="zlib">`+bomb+`</data>`), media.ErrTooLarge,
			[]string{`tile layer "ground"`, "inflates past width*height*4 = 48 bytes"}},
		{"truncated zstd", tmx("orthogonal", "", zdata(zstdB64(t, twelve[:40]))), media.ErrCorrupt,
			[]string{`tile layer "ground"`, "zstd data inflates to 40 bytes, want width*height*4 = 48"}},
		{"oversized zstd", tmx("orthogonal", "", zdata(zstdB64(t, append(twelve, 1, 0, 0, 0)))), media.ErrTooLarge,
			[]string{"zstd data inflates past width*height*4 = 48 bytes"}},
		{"zstd bomb", tmx("orthogonal", "", zdata(zbomb)), media.ErrTooLarge,
			[]string{"zstd data inflates past width*height*4 = 48 bytes"}},
		{"zstd window", tmx("orthogonal", "", zdata(bigWindow)), media.ErrTooLarge,
			[]string{`tile layer "ground": zstd data asks for a window larger than 1048576 bytes (the most a layer of width*height*4 = 48 bytes needs)`}},
		{"damaged zstd", tmx("orthogonal", "", zdata("AAAAAAAA")), media.ErrCorrupt, []string{`tile layer "ground": zstd data`}},
		{"damaged gzip", tmx("orthogonal", "", `<data encoding="base64" compression="gzip">AAAAAAAA</data>`), media.ErrCorrupt, []string{"gzip data"}},
		{"GID beyond every tileset", tmx("orthogonal", "", `<data encoding="csv">1,2,3,4,5,0,0,0,0,0,0,0</data>`), media.ErrCorrupt,
			[]string{`layer "ground": tile (0, 1) has GID 5, beyond every tileset (want 0 for none or one of 1-4 (terrain))`}},
		{"flipped GID beyond", tmx("orthogonal", "", `<data encoding="csv">0,0,0,0,0,0,0,0,0,0,0,2147483657</data>`), media.ErrCorrupt,
			[]string{"tile (3, 2) has GID 9"}},
		{"isometric", tmx("isometric", "", csv(12)), media.ErrUnsupported, []string{`orientation "isometric" is not supported (want orthogonal)`}},
		{"hexagonal", tmx("hexagonal", "", csv(12)), media.ErrUnsupported, []string{"want orthogonal"}},
		{"no orientation", tmx("", "", csv(12)), media.ErrCorrupt, []string{"no orientation: not a map Tiled wrote (want orientation orthogonal)"}},
		{"huge layer", strings.Replace(tmx("orthogonal", "", `<data encoding="csv">1</data>`), `width="4" height="3">`, `width="100000" height="100000">`, 1),
			media.ErrTooLarge, []string{"layer is 100000x100000 tiles, more than Options.MaxTiles = 16777216"}},
		{"negative layer", strings.Replace(tmx("orthogonal", "", csv(12)), `width="4" height="3">`, `width="-4" height="3">`, 1),
			media.ErrCorrupt, []string{"-4x3 tiles, want sizes of 0 or more"}},
		{"chunks in a finite map", tmx("orthogonal", "", `<data encoding="csv"><chunk x="0" y="0" width="1" height="1">1</chunk></data>`),
			media.ErrCorrupt, []string{"chunks in a map that is not infinite"}},
		{"bad chunk", tmx("orthogonal", `infinite="1"`, `<data encoding="csv"><chunk x="0" y="0" width="2" height="1">1</chunk></data>`),
			media.ErrCorrupt, []string{`tile layer "ground": chunk 0 at (0, 0): csv data holds 1 tiles, want width*height = 2`}},
		{"far chunks", tmx("orthogonal", `infinite="1"`, `<data encoding="csv"><chunk x="0" y="0" width="1" height="1">1</chunk><chunk x="900000" y="900000" width="1" height="1">1</chunk></data>`),
			media.ErrTooLarge, []string{"the chunks' bounding box is 900001x900001 tiles"}},
		{"not a map", `hello`, media.ErrCorrupt, []string{"neither a .tmx (XML) nor a .tmj (JSON) map"}},
		{"broken XML", `<map orientation="orthogonal"><layer`, media.ErrCorrupt, []string{"not a well-formed .tmx map"}},
		{"bad property", strings.Replace(tmx("orthogonal", "", csv(12)), `<layer id="1" name="ground" width="4" height="3">`,
			`<layer id="1" name="ground" width="4" height="3"><properties><property name="n" type="int" value="many"/></properties>`, 1),
			media.ErrCorrupt, []string{`int property "n" is "many", want an integer`}},
		{"unknown property type", strings.Replace(tmx("orthogonal", "", csv(12)), `<layer id="1" name="ground" width="4" height="3">`,
			`<layer id="1" name="ground" width="4" height="3"><properties><property name="n" type="vector" value="1"/></properties>`, 1),
			media.ErrCorrupt, []string{`property "n" has type "vector", want one of string, int`}},
		{"image outside the root", strings.Replace(tmx("orthogonal", "", csv(12)), `<layer id`, `<imagelayer name="sky"><image source="../../../etc/x.png"/></imagelayer><layer id`, 1),
			media.ErrInvalid, []string{`image layer "sky"`, `path "../../../etc/x.png" leaves the file system's root`}},
		{"missing template", strings.Replace(tmx("orthogonal", "", csv(12)), `<layer id`, `<objectgroup name="o"><object id="3" template="a.tx" x="1" y="2"/></objectgroup><layer id`, 1),
			fs.ErrNotExist, []string{`object layer "o": object 3: template maps/a.tx: open maps/a.tx`}},
		{"template of another tileset", strings.Replace(tmx("orthogonal", "", csv(12)), `<layer id`, `<objectgroup name="o"><object id="3" template="other.tx" x="1" y="2"/></objectgroup><layer id`, 1),
			media.ErrCorrupt, []string{`object 3: template maps/other.tx: its tile (GID 2) is from tileset maps/x.tsx, which the map does not use`}},
		{"template without object", strings.Replace(tmx("orthogonal", "", csv(12)), `<layer id`, `<objectgroup name="o"><object id="3" template="empty.tx" x="1" y="2"/></objectgroup><layer id`, 1),
			media.ErrCorrupt, []string{`template maps/empty.tx: a template without an object`}},
		{"overlapping tilesets", strings.Replace(tmx("orthogonal", "", csv(12)), `<layer id`, `<tileset firstgid="3" name="x" tilewidth="8" tileheight="8" tilecount="1" columns="1"/><layer id`, 1),
			media.ErrCorrupt, []string{"tileset x (firstgid 3) overlaps tileset terrain (GIDs 1-4)"}},
		{"bad opacity", strings.Replace(tmx("orthogonal", "", csv(12)), `name="ground"`, `name="ground" opacity="2"`, 1),
			media.ErrCorrupt, []string{`tile layer "ground": opacity 2, want 0 to 1`}},

		{"JSON missing tileset", strings.Replace(tmj(`"data":[1,1,1,1,1,1,1,1,1,1,1,1]`), "t.tsj", "nope.tsj", 1), fs.ErrNotExist,
			[]string{"tileset maps/nope.tsj"}},
		{"JSON truncated", tmj(`"data":[1,1,1]`), media.ErrCorrupt, []string{`tile layer "ground": data holds 3 tiles, want width*height = 12`}},
		{"JSON wrong encoding", tmj(`"encoding":"hex","data":"00"`), media.ErrUnsupported, []string{`encoding "hex" (want csv or base64)`}},
		{"JSON string without encoding", tmj(`"data":"AAAA"`), media.ErrCorrupt, []string{`want "encoding": "base64"`}},
		{"JSON bomb", tmj(`"encoding":"base64","compression":"zlib","data":"` + bomb + `"`), media.ErrTooLarge,
			[]string{"zlib data inflates past width*height*4 = 48 bytes"}},
		{"JSON zstd bomb", tmj(`"encoding":"base64","compression":"zstd","data":"` + zbomb + `"`), media.ErrTooLarge,
			[]string{`tile layer "ground": zstd data inflates past width*height*4 = 48 bytes`}},
		{"JSON damaged zstd", tmj(`"encoding":"base64","compression":"zstd","data":"AAAA"`), media.ErrCorrupt, []string{`tile layer "ground": zstd data`}},
		{"JSON GID beyond", tmj(`"data":[0,0,0,0,0,0,0,0,0,0,0,77]`), media.ErrCorrupt, []string{"tile (3, 2) has GID 77, beyond every tileset"}},
		{"JSON staggered", strings.Replace(tmj(`"data":[1,1,1,1,1,1,1,1,1,1,1,1]`), "orthogonal", "staggered", 1), media.ErrUnsupported,
			[]string{`orientation "staggered" is not supported (want orthogonal)`}},
		{"JSON bad layer type", strings.Replace(tmj(`"data":[]`), "tilelayer", "terrain", 1), media.ErrCorrupt,
			[]string{`layer "ground" has type "terrain", want tilelayer, objectgroup, imagelayer or group`}},
		{"JSON broken", `{"type":"map",`, media.ErrCorrupt, []string{"not a well-formed .tmj map"}},
		{"JSON data of the wrong kind", tmj(`"data":{"a":1}`), media.ErrCorrupt, []string{"want an array of GIDs or a base64 string"}},
		{"JSON bad bool property", strings.Replace(tmj(`"data":[1,1,1,1,1,1,1,1,1,1,1,1]`), `"name":"ground",`, `"name":"ground","properties":[{"name":"b","type":"bool","value":"yes"}],`, 1),
			media.ErrCorrupt, []string{`bool property "b" is "yes", want true or false`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "maps/m.tmx"
			if strings.HasPrefix(tt.name, "JSON") {
				name = "maps/m.tmj"
			}
			fsys := fstest.MapFS{
				name:            {Data: []byte(tt.file)},
				"maps/t.tsx":    {Data: []byte(tsx)},
				"maps/other.tx": {Data: []byte(`<template><tileset firstgid="1" source="x.tsx"/><object gid="2" width="8" height="8"/></template>`)},
				"maps/empty.tx": {Data: []byte(`<template></template>`)},
				"maps/t.tsj":    {Data: []byte(`{"type":"tileset","name":"terrain","tilewidth":16,"tileheight":16,"tilecount":4,"columns":2,"image":"t.png"}`)},
			}
			m, err := tiled.Load(fsys, name, tiled.Options{})
			if err == nil {
				t.Fatalf("loaded %+v, want an error", m)
			}
			var me *media.Error
			if !errors.As(err, &me) || me.Pkg != "tiled" || me.Path != name {
				t.Errorf("error %v is not a *media.Error of package tiled for %s", err, name)
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tt.sentinel)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestMissingMap(t *testing.T) {
	_, err := tiled.Load(fstest.MapFS{}, "nope.tmx", tiled.Options{})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "tiled: load map nope.tmx") {
		t.Errorf("err = %v", err)
	}
	_, err = tiled.LoadTileset(fstest.MapFS{"t.tsx": {Data: []byte(`<tileset name="x" tilecount="-1"/>`)}}, "t.tsx", tiled.Options{})
	if !errors.Is(err, media.ErrCorrupt) || !strings.Contains(err.Error(), "tiled: load tileset t.tsx") {
		t.Errorf("err = %v", err)
	}
}

func TestMaxTilesOption(t *testing.T) {
	fsys := fstest.MapFS{"m.tmx": {Data: []byte(tmx("orthogonal", "", csv(12)))}, "t.tsx": {Data: []byte(tsx)}}
	if _, err := tiled.Load(fsys, "m.tmx", tiled.Options{MaxTiles: 12}); err != nil {
		t.Errorf("MaxTiles 12: %v", err)
	}
	_, err := tiled.Load(fsys, "m.tmx", tiled.Options{MaxTiles: 11})
	if !errors.Is(err, media.ErrTooLarge) || !strings.Contains(err.Error(), "more than Options.MaxTiles = 11") {
		t.Errorf("MaxTiles 11: %v", err)
	}
}

// TestZstd loads maps whose layer Tiled compressed with zstd, and checks
// that a zstd bomb costs no more memory than the layer declares.
func TestZstd(t *testing.T) {
	for _, name := range []string{"own/zstd.tmx", "own/zstd.tmj"} {
		m, err := tiled.Load(testFS, name, tiled.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkOwnMap(t, m)
	}
	bomb := tmx("orthogonal", "", `<data encoding="base64" compression="zstd">`+zstdB64(t, make([]byte, 64<<20))+`</data>`)
	fsys := fstest.MapFS{"m.tmx": {Data: []byte(bomb)}, "t.tsx": {Data: []byte(tsx)}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := tiled.Load(fsys, "m.tmx", tiled.Options{})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, media.ErrTooLarge) {
		t.Fatalf("64 MiB zstd bomb: err = %v, want media.ErrTooLarge", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 4<<20 {
		t.Errorf("loading a 64 MiB zstd bomb for a 48-byte layer allocated %d bytes, want under 4 MiB", n)
	}
}

// TestTilesetWithoutCountTooBig: a tileset with no tile count takes it
// from its image's size, within bounds.
func TestTilesetWithoutCountTooBig(t *testing.T) {
	fsys := fstest.MapFS{
		"m.tmx": {Data: []byte(tmx("orthogonal", "", `<data encoding="csv">1,0,0,0,0,0,0,0,0,0,0,0</data>`))},
		"t.tsx": {Data: []byte(`<tileset name="huge" tilewidth="1" tileheight="1"><image source="t.png" width="100000" height="2"/></tileset>`)},
	}
	_, err := tiled.Load(fsys, "m.tmx", tiled.Options{})
	if err == nil || !strings.Contains(err.Error(), `tileset "huge": an image of 100000x2 makes 100000x2 tiles, want at most 16384 a side`) {
		t.Errorf("got %v", err)
	}
}
