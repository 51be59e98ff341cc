package glfwplatform_test

import (
	"errors"
	"github.com/metronome-go/metronome/input"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/glfwplatform"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*glfwplatform.Config)
		want []string
	}{
		{"default", func(*glfwplatform.Config) {}, nil},
		{"zero size", func(c *glfwplatform.Config) { c.Width, c.Height = 0, 0 }, []string{"Config.Width 0", "Config.Height 0"}},
		{"too wide", func(c *glfwplatform.Config) { c.Width = glfwplatform.MaxWindowSize + 1 }, []string{"Config.Width 16385 is out of range (allowed: 1 to 16384)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := glfwplatform.DefaultConfig()
			tc.edit(&c)
			err := c.Validate()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Validate: got %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate: got nil, want %v", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate: got %q, want it to contain %q", err, w)
				}
			}
		})
	}
}

func TestDisplayState(t *testing.T) {
	testdisplay.Require(t)
	var ctxErr error
	var states []runtime.WindowState
	testdisplay.OnMain(func() {
		cfg := glfwplatform.DefaultConfig()
		cfg.Width, cfg.Height, cfg.Hidden = 200, 100, true
		ctx, err := glfwplatform.New(cfg)
		if err != nil {
			ctxErr = err
			return
		}
		defer ctx.Close()
		d := ctx.Display.(*glfwplatform.Display)
		d.PollEvents()
		states = append(states, d.State())
		d.Hide()
		d.PollEvents()
		states = append(states, d.State())
		d.Show()
		d.PollEvents()
		states = append(states, d.State())
		d.Window().SetShouldClose(true)
		states = append(states, d.State())
	})
	if ctxErr != nil {
		testdisplay.Unavailable(t, ctxErr)
	}
	if s := states[0]; s.Size != (input.Size{Width: 200, Height: 100}) || s.Framebuffer.Width == 0 || s.Hidden || s.CloseRequested {
		t.Errorf("new headless window: got %+v, want 200x100, rendering, not closing", s)
	}
	if !states[1].Hidden {
		t.Errorf("after Hide: got %+v, want Hidden", states[1])
	}
	if states[2].Hidden {
		t.Errorf("after Show: got %+v, want visible", states[2])
	}
	if !states[3].CloseRequested {
		t.Errorf("after a close request: got %+v, want CloseRequested", states[3])
	}
}

// Without a display New returns ErrNoDisplay instead of letting GLFW log and
// panic.
func TestNewWithoutDisplay(t *testing.T) {
	testdisplay.Require(t)
	t.Setenv("DISPLAY", "")
	var err error
	testdisplay.OnMain(func() {
		var ctx *runtime.Context
		ctx, err = glfwplatform.New(glfwplatform.DefaultConfig())
		if ctx != nil {
			ctx.Close()
		}
	})
	if !errors.Is(err, glfwplatform.ErrNoDisplay) {
		t.Fatalf("New without DISPLAY: %v, want ErrNoDisplay", err)
	}
}
