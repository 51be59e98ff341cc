package ttf_test

import (
	"testing"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/metronome-go/metronome/assets/internal/ttf"
)

func BenchmarkParseAndLoad(b *testing.B) {
	b.ReportAllocs()
	var o ttf.Outline
	for b.Loop() {
		font, err := ttf.Parse(goregular.TTF)
		if err != nil {
			b.Fatal(err)
		}
		for g := 0; g < 64; g++ {
			_ = font.LoadOutline(uint16(g), &o)
		}
	}
}
