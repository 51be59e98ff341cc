package main

import (
	"strings"
	"testing"
	"time"
)

func TestValidate(t *testing.T) {
	good := options{n: 10, size: 2, duration: time.Second, mode: "renderer", interp: "off", filter: "linear", slice: time.Millisecond}
	tests := []struct {
		name string
		edit func(*options)
		want []string
	}{
		{"good", func(*options) {}, nil},
		{"everything wrong", func(o *options) {
			o.n, o.size, o.duration, o.mode, o.slice, o.interp, o.filter = -1, 0, 0, "fast", -1, "maybe", "bilinear"
		}, []string{"-n is -1", "-size is 0, want 1 to 256", "-duration is 0s", "-slice is -1ns", `-mode is "fast"`, `-interp is "maybe", want off, on or compare`, `-filter is "bilinear", want linear or nearest`}},
		{"interpolating the plain loop", func(o *options) { o.mode, o.interp = "plain", "on" }, []string{"-interp on needs the renderer"}},
	}
	for _, tt := range tests {
		o := good
		tt.edit(&o)
		err := validate(o)
		if len(tt.want) == 0 {
			if err != nil {
				t.Errorf("%s: validate = %v, want nil", tt.name, err)
			}
			continue
		}
		if err == nil {
			t.Fatalf("%s: validate = nil, want errors", tt.name)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error does not mention %q:\n%v", tt.name, w, err)
			}
		}
	}
}

func TestBunniesStayInside(t *testing.T) {
	var b bunnies
	b.reset(500, 4, 320, 200)
	for range 1000 {
		b.step(1.0 / 60)
	}
	for i := 0; i < len(b.pos); i += 2 {
		if x, y := b.pos[i], b.pos[i+1]; x < 0 || x > 316 || y < 0 || y > 196 {
			t.Fatalf("bunny %d at (%v, %v), outside [0, 316] x [0, 196]", i/2, x, y)
		}
	}
}

func TestBenchOrder(t *testing.T) {
	tests := []struct {
		mode, interp string
		want         string
	}{
		{"renderer", "off", "renderer"},
		{"renderer", "on", "renderer-interp"},
		{"renderer", "compare", "renderer renderer-interp"},
		{"plain", "off", "plain"},
		{"compare", "off", "plain renderer"},
		{"compare", "compare", "plain renderer renderer-interp"},
	}
	for _, tt := range tests {
		if got := strings.Join(benchOrder(options{mode: tt.mode, interp: tt.interp}), " "); got != tt.want {
			t.Errorf("benchOrder(-mode %s -interp %s) = %q, want %q", tt.mode, tt.interp, got, tt.want)
		}
	}
	if got := defaultFilter(); got != "linear" {
		t.Errorf("defaultFilter() = %q, want linear (the zero TextureOptions)", got)
	}
}
