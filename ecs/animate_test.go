package ecs_test

import (
	"image"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

func TestAnimator(t *testing.T) {
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	walk := assets.Animation{Frames: []int{0, 1, 2, 3}, FrameTime: 100 * time.Millisecond}
	sheet, err := lib.AddSheet("walker", image.NewRGBA(image.Rect(0, 0, 64, 16)), assets.SheetSpec{FrameWidth: 16, FrameHeight: 16})
	if err != nil {
		t.Fatal(err)
	}
	if err := lib.Upload(rendertest.NewRecorder(320, 240, 1024)); err != nil {
		t.Fatal(err)
	}
	frame := func(t *testing.T, i int) assets.Region {
		r, err := lib.Frame(sheet, i)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tests := []struct {
		name      string
		quiet     []bool // per tick
		paused    bool
		wantFrame int
		wantTime  time.Duration
	}{
		{"every tick", []bool{false, false, false, false, false, false}, false, 1, 120 * time.Millisecond},
		// A burst: four quiet ticks, then the final one. The animator runs
		// once, with all five ticks' time.
		{"quiet burst", []bool{true, true, true, true, false}, false, 1, 100 * time.Millisecond},
		{"ends on quiet ticks", []bool{false, false, false, true, true}, false, 0, 60 * time.Millisecond},
		{"paused", []bool{false, false, false, false, false, false}, true, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t, ecs.Options{Assets: lib})
			a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
				p := ctx.Commands.Spawn()
				ecs.With(p, ecs.At(10, 10))
				ecs.With(p, ecs.SpriteOf(frame(t, 0)))
				ecs.With(p, ecs.Animator{Sheet: sheet, Animation: walk, Paused: tt.paused})
			}})
			if err := a.InitSimulation(nil); err != nil {
				t.Fatal(err)
			}
			for i, q := range tt.quiet {
				tc := tick(uint64(i), 0)
				tc.Quiet, tc.Final = q, !q
				if err := a.Update(tc); err != nil {
					t.Fatal(err)
				}
			}
			q := ecs.NewFilter2[ecs.Animator, ecs.Sprite](a.World()).Query()
			for q.Next() {
				an, s := q.Get()
				if an.Elapsed != tt.wantTime {
					t.Errorf("elapsed: got %v, want %v", an.Elapsed, tt.wantTime)
				}
				if want := frame(t, tt.wantFrame); s.Source != want.Source || s.Texture != want.Texture {
					t.Errorf("sprite source: got %+v, want frame %d at %+v", s.Source, tt.wantFrame, want.Source)
				}
			}
			if st := a.Stats().Animation; st.Errors != 0 {
				t.Errorf("animation errors: got %d (%v), want 0", st.Errors, st.LastError)
			}
		})
	}
}

func TestAnimatorWithoutLibrary(t *testing.T) {
	a := newApp(t, ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.At(10, 10))
		ecs.With(p, ecs.Sprite{Size: geom.Vec2{X: 4, Y: 4}})
		ecs.With(p, ecs.Animator{Animation: assets.Animation{Frames: []int{0, 1}, FrameTime: time.Millisecond}})
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Update(tick(0, 0)); err != nil {
		t.Fatal(err)
	}
	st := a.Stats().Animation
	if st.Errors != 1 || st.LastError == nil || !strings.Contains(st.LastError.Error(), "Options.Assets") {
		t.Errorf("animation errors: got %d (%v), want 1 naming Options.Assets", st.Errors, st.LastError)
	}
}
