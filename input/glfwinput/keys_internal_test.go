package glfwinput

import (
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/input"
)

// TestKeyTable checks that every keyboard button has exactly one GLFW key
// and no GLFW key maps twice.
func TestKeyTable(t *testing.T) {
	seenButton := map[input.Button]glfw.Key{}
	seenKey := map[glfw.Key]input.Button{}
	for _, k := range keys {
		if k.input.Device() != input.Keyboard {
			t.Errorf("GLFW key %d maps to %v, not a keyboard button", k.glfw, k.input)
		}
		if k.glfw < 0 || k.glfw > glfw.KeyLast {
			t.Errorf("GLFW key %d for %v is out of range", k.glfw, k.input)
		}
		if prev, dup := seenButton[k.input]; dup {
			t.Errorf("%v maps from GLFW keys %d and %d", k.input, prev, k.glfw)
		}
		if prev, dup := seenKey[k.glfw]; dup {
			t.Errorf("GLFW key %d maps to %v and %v", k.glfw, prev, k.input)
		}
		seenButton[k.input], seenKey[k.glfw] = k.glfw, k.input
	}
	for b := input.Button(1); int(b) <= input.ButtonCount; b++ {
		if _, ok := seenButton[b]; b.Device() == input.Keyboard && !ok {
			t.Errorf("keyboard button %v has no GLFW key", b)
		}
	}
	spot := []struct {
		k glfw.Key
		b input.Button
	}{{glfw.KeySpace, input.KeySpace}, {glfw.KeyA, input.KeyA}, {glfw.KeyKP9, input.KeyKP9}, {glfw.KeyMenu, input.KeyMenu}, {glfw.KeyF25, input.KeyF25}}
	for _, s := range spot {
		if got := seenKey[s.k]; got != s.b {
			t.Errorf("GLFW key %d maps to %v, want %v", s.k, got, s.b)
		}
	}
	for i, b := range gamepadButtons {
		if b.Device() != input.Gamepad {
			t.Errorf("gamepad button %d maps to %v", i, b)
		}
	}
	for m := glfw.MouseButton1; m <= glfw.MouseButton8; m++ {
		if b := mouseButton(m); b.Device() != input.Mouse {
			t.Errorf("mouse button %d maps to %v", m, b)
		}
	}
	if mouseButton(glfw.MouseButtonLeft) != input.MouseLeft || mouseButton(glfw.MouseButtonRight) != input.MouseRight || mouseButton(glfw.MouseButtonMiddle) != input.MouseMiddle {
		t.Errorf("left/right/middle mouse buttons map to %v/%v/%v", mouseButton(glfw.MouseButtonLeft), mouseButton(glfw.MouseButtonRight), mouseButton(glfw.MouseButtonMiddle))
	}
}
