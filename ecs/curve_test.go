package ecs_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/render2d"
)

// fade rises from 0 to 1 by a tenth of life, holds, and falls to 0.
var fade = ecs.Curve{Stops: [ecs.MaxCurveStops]ecs.Stop{{At: 0.1, Value: 1}, {At: 0.8, Value: 1}}}

func TestCurveAt(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    ecs.Curve
		at   float32
		want float32
	}{
		{"line start", ecs.Curve{Start: 4, End: 1}, 0, 4},
		{"line middle", ecs.Curve{Start: 4, End: 2}, 0.5, 3},
		{"line end", ecs.Curve{Start: 4, End: 1}, 1, 1},
		{"constant", ecs.Constant(3), 0.7, 3},
		{"zero", ecs.Curve{}, 0.5, 0},
		{"fade in", fade, 0.05, 0.5},
		{"at a stop", fade, 0.1, 1},
		{"hold", fade, 0.5, 1},
		{"fade out", fade, 0.9, 0.5},
		{"fade end", fade, 1, 0},
		{"three stops", ecs.Curve{Start: 0, End: 0, Stops: [ecs.MaxCurveStops]ecs.Stop{{0.25, 8}, {0.5, 4}, {0.75, 6}}}, 0.625, 5},
		{"every stop", ecs.Curve{Start: 0, End: 7, Stops: [ecs.MaxCurveStops]ecs.Stop{{0.125, 1}, {0.25, 2}, {0.375, 3}, {0.5, 4}, {0.625, 5}, {0.75, 6}}}, 0.9375, 6.75},
	} {
		if got := tc.c.At(tc.at); !close32(got, tc.want) {
			t.Errorf("%s: At(%v) = %v, want %v", tc.name, tc.at, got, tc.want)
		}
	}
}

func TestColorCurveAt(t *testing.T) {
	c := ecs.ColorCurve{
		Start: render2d.Color{R: 1, G: 1, B: 1, A: 1},
		End:   render2d.Color{R: 1},
		Stops: [ecs.MaxCurveStops]ecs.ColorStop{{At: 0.5, Color: render2d.Color{R: 1, G: 0.5, A: 1}}},
	}
	for _, tc := range []struct {
		at   float32
		want render2d.Color
	}{
		{0, render2d.Color{R: 1, G: 1, B: 1, A: 1}},
		{0.25, render2d.Color{R: 1, G: 0.75, B: 0.5, A: 1}},
		{0.5, render2d.Color{R: 1, G: 0.5, A: 1}},
		{0.75, render2d.Color{R: 1, G: 0.25, A: 0.5}},
		{1, render2d.Color{R: 1}},
	} {
		if got := c.At(tc.at); got != tc.want {
			t.Errorf("At(%v) = %+v, want %+v", tc.at, got, tc.want)
		}
	}
}

func TestCurveText(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"3", "3"},
		{"0:4, 1:1", "0:4, 1:1"},
		{" 0 : 0 ,0.1:1,0.8:1, 1:0 ", "0:0, 0.1:1, 0.8:1, 1:0"},
		{"0:2, 1:2", "2"},
	} {
		var c ecs.Curve
		if err := c.UnmarshalText([]byte(tc.in)); err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		b, _ := c.MarshalText()
		if string(b) != tc.out {
			t.Errorf("%q read and written: got %q, want %q", tc.in, b, tc.out)
		}
	}
	var c ecs.Curve
	if err := c.UnmarshalText([]byte("0:0, 0.1:1, 0.8:1, 1:0")); err != nil || c != fade {
		t.Errorf("text of fade: got %+v, %v; want %+v", c, err, fade)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "is not a finite number"},
		{"x", `value "x"`},
		{"0:1", "1 stops"},
		{"0.1:1, 1:0", "the first stop is at 0.1, not 0"},
		{"0:1, 0.9:0", "the last stop is at 0.9, not 1"},
		{"0:1, 0.5:2, 0.5:3, 1:0", "stop 3 at 0.5 does not come after 0.5"},
		{"0:1, 0.5, 1:0", "stop 2 (\"0.5\") has no ':'"},
		{"0:1, 0.5:NaN, 1:0", "stop 2: value \"NaN\""},
		{"0:0, .1:1, .2:1, .3:1, .4:1, .5:1, .6:1, .7:1, 1:0", "9 stops"},
	} {
		err := c.UnmarshalText([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "at most 6 between 0 and 1") {
			t.Errorf("%q: got %v, want an error with %q and the form", tc.in, err, tc.want)
		}
	}
}

func TestColorCurveText(t *testing.T) {
	var c ecs.ColorCurve
	const text = "0:#ffffff, 0.5:#ff8000, 1:#ff000000"
	if err := c.UnmarshalText([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if c.Start != render2d.White || c.End != (render2d.Color{R: 1}) || c.Stops[0].At != 0.5 || c.Stops[1].At != 0 {
		t.Errorf("read %q: got %+v", text, c)
	}
	if b, _ := c.MarshalText(); string(b) != text {
		t.Errorf("written: got %q, want %q", b, text)
	}
	if err := c.UnmarshalText([]byte("#202028")); err != nil || c.Start != c.End || c.Start == (render2d.Color{}) {
		t.Errorf("one colour: got %+v, %v", c, err)
	}
	if err := c.UnmarshalText([]byte("0:#fff, 1:#000000")); err == nil || !strings.Contains(err.Error(), `stop 1: colour "#fff"`) {
		t.Errorf("short colour: got %v", err)
	}
}

// TestCurveInConfig: a game's settings hold a curve as a config key's
// text, checked when the file is read like any other key.
func TestCurveInConfig(t *testing.T) {
	type settings struct {
		DustSize  ecs.Curve      `toml:"dust_size"`
		DustColor ecs.ColorCurve `toml:"dust_color"`
	}
	base, err := config.Default().WithGame(&settings{DustSize: ecs.Constant(2), DustColor: ecs.ColorCurve{Start: render2d.White, End: render2d.White}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.Parse("game.toml", []byte("[game]\ndust_size = \"0:0, 0.1:1, 0.8:1, 1:0\"\ndust_color = \"0:#ffffff, 1:#ff000000\"\n"), base)
	if err != nil {
		t.Fatal(err)
	}
	var s settings
	if err := c.DecodeGame(&s); err != nil {
		t.Fatal(err)
	}
	if s.DustSize != fade || s.DustColor.End != (render2d.Color{R: 1}) {
		t.Errorf("decoded %+v", s)
	}
	_, err = config.Parse("game.toml", []byte("[game]\ndust_size = \"0:0, 1.5:1\"\n"), base)
	if err == nil || !strings.Contains(err.Error(), "game.dust_size") || !strings.Contains(err.Error(), "the last stop is at 1.5, not 1") {
		t.Errorf("bad curve in a file: got %v", err)
	}
}

func TestCurveValidate(t *testing.T) {
	fx := sparks(false)
	fx.Size.Stops[0] = ecs.Stop{At: 0.5, Value: 2}
	fx.Size.Stops[1] = ecs.Stop{At: 0.4, Value: 2}
	fx.Alpha = ecs.Curve{Start: 1}
	fx.Alpha.Stops[2] = ecs.Stop{At: 0.5, Value: 1}
	fx.Color.Stops[0] = ecs.ColorStop{At: 1}
	_, err := ecs.NewEmitter(fx, 10)
	if err == nil {
		t.Fatal("no error for bad stops")
	}
	for _, want := range []string{
		"Size.Stops[1].At 0.4: must rise strictly within (0, 1) (previous 0.5)",
		"Alpha.Stops[2] follows the unused Stops[0]",
		"Color.Stops[0].At 1: must rise strictly within (0, 1)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestParticlesDrawnOnTheirCurves: each particle's quad has the size,
// tint and alpha its curves give at its age.
func TestParticlesDrawnOnTheirCurves(t *testing.T) {
	fx := sparks(false)
	fx.Rate = 0
	fx.Lifetime = ecs.DurationRange{Min: 200 * time.Millisecond, Max: 200 * time.Millisecond} // 10 ticks
	fx.Size = ecs.Curve{Start: 1, End: 1, Stops: [ecs.MaxCurveStops]ecs.Stop{{At: 0.2, Value: 9}, {At: 0.6, Value: 5}}}
	fx.Alpha = fade
	fx.Color = ecs.ColorCurve{Start: render2d.White, End: render2d.White, Stops: [ecs.MaxCurveStops]ecs.ColorStop{{At: 0.4, Color: render2d.Color{R: 1, A: 1}}}}
	a := particleApp(t, 3, fx, 8, false)
	emitterOf(a).Burst = 1
	run(t, a, 1, 1) // born, at age 0
	next := uint64(2)
	for _, want := range []struct {
		life, size, gb, alpha float32
	}{
		{0.1, 5, 0.75, 1},
		{0.3, 8, 0.25, 1},
		{0.5, 6, 1.0 / 6, 1},
		{0.7, 4, 0.5, 1},
		{0.9, 2, 5.0 / 6, 0.5},
	} {
		to := uint64(1 + want.life*10 + 0.5) // one tick is a tenth of its life
		run(t, a, next, to)
		next = to + 1
		ps := prepare(t, a).Passes[0].Packets
		if len(ps) != 1 {
			t.Fatalf("at %v of life: %d packets, want 1", want.life, len(ps))
		}
		got := ps[0]
		tint := render2d.Color{R: 1, G: want.gb, B: want.gb, A: want.alpha}
		if !close32(got.Transform.Scale.X, want.size) || !close32(got.Tint.R, tint.R) || !close32(got.Tint.G, tint.G) || !close32(got.Tint.B, tint.B) || !close32(got.Tint.A, tint.A) {
			t.Errorf("at %v of life: size %v, tint %+v; want %v, %+v", want.life, got.Transform.Scale.X, got.Tint, want.size, tint)
		}
	}
}

func close32(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }
