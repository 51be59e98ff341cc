package tiled_test

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/metronome-go/metronome/tiled"
)

// bigMap returns a 256x256 map with four zlib-compressed tile layers and
// the PNG of its 512x512 tileset image (1,024 tiles of 16 pixels).
func bigMap(tb testing.TB) (tmx, tileset []byte) {
	const side = 256
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0"?><map orientation="orthogonal" width="%d" height="%d" tilewidth="16" tileheight="16">`, side, side)
	b.WriteString(`<tileset firstgid="1" name="big" tilewidth="16" tileheight="16" tilecount="1024" columns="32"><image source="big.png" width="512" height="512"/></tileset>`)
	raw := make([]byte, 4*side*side)
	for layer := range 4 {
		for i := range side * side {
			binary.LittleEndian.PutUint32(raw[4*i:], uint32(1+(i*7+layer*13)%1024))
		}
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		w.Write(raw)
		w.Close()
		fmt.Fprintf(&b, `<layer id="%d" name="l%d" width="%d" height="%d"><data encoding="base64" compression="zlib">%s</data></layer>`,
			layer+1, layer, side, side, base64.StdEncoding.EncodeToString(z.Bytes()))
	}
	b.WriteString(`</map>`)
	img := image.NewRGBA(image.Rect(0, 0, 512, 512))
	for y := range 512 {
		for x := range 512 {
			img.SetRGBA(x, y, color.RGBA{uint8(x * 3), uint8(y * 5), uint8(x ^ y), 255})
		}
	}
	var p bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		tb.Fatal(err)
	}
	return []byte(b.String()), p.Bytes()
}

// BenchmarkLoad256 measures loading a 256x256 map of four layers and,
// in the same run, decoding its 512x512 tileset PNG (what loading the
// map's image costs before any atlas work):
//
//	go test ./tiled -run '^$' -bench Load256 -benchmem
func BenchmarkLoad256(b *testing.B) {
	tmx, pngData := bigMap(b)
	fsys := fstest.MapFS{"big.tmx": {Data: tmx}}
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(tmx)))
		for b.Loop() {
			m, err := tiled.Load(fsys, "big.tmx", tiled.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if len(m.Layers) != 4 || len(m.Layers[3].Tiles) != 256*256 {
				b.Fatal("wrong map")
			}
		}
	})
	b.Run("tileset-png", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(pngData)))
		for b.Loop() {
			if _, err := png.Decode(bytes.NewReader(pngData)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
