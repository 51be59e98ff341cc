package input

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/metronome-go/metronome/internal/suggest"
)

// Device says which kind of hardware a [Button] belongs to.
type Device uint8

// The devices a button can belong to.
const (
	NoDevice Device = iota
	Keyboard
	Mouse
	Gamepad
)

// String returns the device's name.
func (d Device) String() string {
	switch d {
	case Keyboard:
		return "keyboard"
	case Mouse:
		return "mouse"
	case Gamepad:
		return "gamepad"
	}
	return "none"
}

// Button identifies one physical control: a keyboard key, a mouse button or
// a gamepad button. The values are Metronome's own, dense and stable within a
// build; persist buttons by name ([Button.String], [ParseButton]), never by
// number. The zero Button is [ButtonNone].
type Button uint8

// Keyboard keys. Names follow the US layout position, as GLFW's do: KeyA is
// the key labelled A on a US keyboard wherever it sits on another layout.
const (
	ButtonNone Button = iota
	KeySpace
	KeyApostrophe
	KeyComma
	KeyMinus
	KeyPeriod
	KeySlash
	Key0
	Key1
	Key2
	Key3
	Key4
	Key5
	Key6
	Key7
	Key8
	Key9
	KeySemicolon
	KeyEqual
	KeyA
	KeyB
	KeyC
	KeyD
	KeyE
	KeyF
	KeyG
	KeyH
	KeyI
	KeyJ
	KeyK
	KeyL
	KeyM
	KeyN
	KeyO
	KeyP
	KeyQ
	KeyR
	KeyS
	KeyT
	KeyU
	KeyV
	KeyW
	KeyX
	KeyY
	KeyZ
	KeyLeftBracket
	KeyBackslash
	KeyRightBracket
	KeyGraveAccent
	KeyWorld1
	KeyWorld2
	KeyEscape
	KeyEnter
	KeyTab
	KeyBackspace
	KeyInsert
	KeyDelete
	KeyRight
	KeyLeft
	KeyDown
	KeyUp
	KeyPageUp
	KeyPageDown
	KeyHome
	KeyEnd
	KeyCapsLock
	KeyScrollLock
	KeyNumLock
	KeyPrintScreen
	KeyPause
	KeyF1
	KeyF2
	KeyF3
	KeyF4
	KeyF5
	KeyF6
	KeyF7
	KeyF8
	KeyF9
	KeyF10
	KeyF11
	KeyF12
	KeyF13
	KeyF14
	KeyF15
	KeyF16
	KeyF17
	KeyF18
	KeyF19
	KeyF20
	KeyF21
	KeyF22
	KeyF23
	KeyF24
	KeyF25
	KeyKP0
	KeyKP1
	KeyKP2
	KeyKP3
	KeyKP4
	KeyKP5
	KeyKP6
	KeyKP7
	KeyKP8
	KeyKP9
	KeyKPDecimal
	KeyKPDivide
	KeyKPMultiply
	KeyKPSubtract
	KeyKPAdd
	KeyKPEnter
	KeyKPEqual
	KeyLeftShift
	KeyLeftControl
	KeyLeftAlt
	KeyLeftSuper
	KeyRightShift
	KeyRightControl
	KeyRightAlt
	KeyRightSuper
	KeyMenu

	// Mouse buttons.
	MouseLeft
	MouseRight
	MouseMiddle
	Mouse4
	Mouse5
	Mouse6
	Mouse7
	Mouse8

	// Gamepad buttons, in the standard (Xbox-style) layout.
	GamepadA
	GamepadB
	GamepadX
	GamepadY
	GamepadLeftBumper
	GamepadRightBumper
	GamepadBack
	GamepadStart
	GamepadGuide
	GamepadLeftThumb
	GamepadRightThumb
	GamepadDpadUp
	GamepadDpadRight
	GamepadDpadDown
	GamepadDpadLeft

	buttonLimit // one past the last valid button
)

// ButtonCount is the number of valid buttons; valid values are 1 to
// ButtonCount inclusive.
const ButtonCount = int(buttonLimit) - 1

var buttonNames = [buttonLimit]string{
	"None", "Space", "Apostrophe", "Comma", "Minus", "Period", "Slash",
	"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "Semicolon", "Equal",
	"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O",
	"P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z",
	"LeftBracket", "Backslash", "RightBracket", "GraveAccent", "World1", "World2",
	"Escape", "Enter", "Tab", "Backspace", "Insert", "Delete",
	"Right", "Left", "Down", "Up", "PageUp", "PageDown", "Home", "End",
	"CapsLock", "ScrollLock", "NumLock", "PrintScreen", "Pause",
	"F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "F13",
	"F14", "F15", "F16", "F17", "F18", "F19", "F20", "F21", "F22", "F23", "F24", "F25",
	"KP0", "KP1", "KP2", "KP3", "KP4", "KP5", "KP6", "KP7", "KP8", "KP9",
	"KPDecimal", "KPDivide", "KPMultiply", "KPSubtract", "KPAdd", "KPEnter", "KPEqual",
	"LeftShift", "LeftControl", "LeftAlt", "LeftSuper",
	"RightShift", "RightControl", "RightAlt", "RightSuper", "Menu",
	"MouseLeft", "MouseRight", "MouseMiddle", "Mouse4", "Mouse5", "Mouse6", "Mouse7", "Mouse8",
	"GamepadA", "GamepadB", "GamepadX", "GamepadY", "GamepadLeftBumper", "GamepadRightBumper",
	"GamepadBack", "GamepadStart", "GamepadGuide", "GamepadLeftThumb", "GamepadRightThumb",
	"GamepadDpadUp", "GamepadDpadRight", "GamepadDpadDown", "GamepadDpadLeft",
}

// aliases are extra spellings accepted by ParseButton, keyed in lower case.
var aliases = map[string]Button{
	"esc":          KeyEscape,
	"return":       KeyEnter,
	"del":          KeyDelete,
	"grave":        KeyGraveAccent,
	"backquote":    KeyGraveAccent,
	"leftctrl":     KeyLeftControl,
	"rightctrl":    KeyRightControl,
	"lctrl":        KeyLeftControl,
	"rctrl":        KeyRightControl,
	"lshift":       KeyLeftShift,
	"rshift":       KeyRightShift,
	"lalt":         KeyLeftAlt,
	"ralt":         KeyRightAlt,
	"mousebutton1": MouseLeft,
	"mousebutton2": MouseRight,
	"mousebutton3": MouseMiddle,
	"gamepadlb":    GamepadLeftBumper,
	"gamepadrb":    GamepadRightBumper,
}

var buttonByName = func() map[string]Button {
	m := make(map[string]Button, len(buttonNames)+len(aliases))
	for b := Button(1); b < buttonLimit; b++ {
		m[strings.ToLower(buttonNames[b])] = b
	}
	for k, b := range aliases {
		m[k] = b
	}
	return m
}()

// Valid reports whether b names a real control.
func (b Button) Valid() bool { return b > ButtonNone && b < buttonLimit }

// Device returns the device b belongs to, or NoDevice for an invalid button.
func (b Button) Device() Device {
	switch {
	case b >= KeySpace && b <= KeyMenu:
		return Keyboard
	case b >= MouseLeft && b <= Mouse8:
		return Mouse
	case b >= GamepadA && b <= GamepadDpadLeft:
		return Gamepad
	}
	return NoDevice
}

// String returns the button's canonical name, the one [ParseButton] reads
// back ("Space", "A", "MouseLeft", "GamepadA"). An invalid button formats as
// "Button(n)".
func (b Button) String() string {
	if b < buttonLimit {
		return buttonNames[b]
	}
	return fmt.Sprintf("Button(%d)", uint8(b))
}

// MarshalText implements encoding.TextMarshaler with the canonical name, so
// buttons can be written to config files.
func (b Button) MarshalText() ([]byte, error) {
	if !b.Valid() {
		return nil, fmt.Errorf("input: button %d is not a valid button (valid: 1 to %d)", uint8(b), ButtonCount)
	}
	return []byte(buttonNames[b]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with [ParseButton].
func (b *Button) UnmarshalText(text []byte) error {
	v, err := ParseButton(string(text))
	if err != nil {
		return err
	}
	*b = v
	return nil
}

// NameError reports a button or axis name that does not parse.
// Suggestions holds the closest known names, best first; it may be empty.
type NameError struct {
	Name string
	// Kind is what was expected: "button" (also when empty), "axis", or
	// "axis or button" for an [AxisBinding].
	Kind        string
	Suggestions []string
}

func (e *NameError) Error() string {
	kind := e.Kind
	if kind == "" {
		kind = "button"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "input: unknown %s name %q", kind, e.Name)
	if len(e.Suggestions) > 0 {
		sb.WriteString(" (did you mean ")
		for i, s := range e.Suggestions {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "%q", s)
		}
		sb.WriteString("?)")
	} else if kind == "button" {
		sb.WriteString(` (names look like "Space", "A", "Escape", "Left", "MouseLeft", "GamepadA")`)
	} else {
		sb.WriteString(` (names look like "GamepadLeftX", "GamepadRightTrigger", "Space", "A/D")`)
	}
	return sb.String()
}

// ParseButton returns the button with the given name. Matching ignores case
// and surrounding space; a few common aliases are accepted ("Esc",
// "Return", "LeftCtrl"). An unknown name is a *[NameError] that lists up to
// three close matches by edit distance.
func ParseButton(name string) (Button, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	if b, ok := buttonByName[key]; ok {
		return b, nil
	}
	return ButtonNone, &NameError{Name: name, Kind: "button", Suggestions: suggestNames(key)}
}

// ParseButtons parses each name with [ParseButton]. It reports every bad name
// at once, joined with errors.Join, and returns nil buttons on error.
func ParseButtons(names ...string) ([]Button, error) {
	out := make([]Button, 0, len(names))
	var errs []error
	for _, n := range names {
		b, err := ParseButton(n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, b)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// suggestNames returns up to three canonical names closest to key (already
// lower case), nearest first, ties broken alphabetically. Aliases count as
// spellings of their canonical name.
func suggestNames(key string) []string {
	if len(key) > 64 { // no button name is near a long text
		return nil
	}
	return suggest.NearestBy(key, func(yield func(spelling, name string) bool) {
		for b := Button(1); b < buttonLimit; b++ {
			if !yield(buttonNames[b], buttonNames[b]) {
				return
			}
		}
		for alias, b := range aliases {
			if !yield(alias, buttonNames[b]) {
				return
			}
		}
	}, 3)
}

// ButtonSet is a set of buttons, one bit each. The zero value is empty.
type ButtonSet [4]uint64

// Has reports whether b is in the set.
func (s ButtonSet) Has(b Button) bool { return s[b>>6]&(1<<(b&63)) != 0 }

// Add puts b in the set.
func (s *ButtonSet) Add(b Button) { s[b>>6] |= 1 << (b & 63) }

// Remove takes b out of the set.
func (s *ButtonSet) Remove(b Button) { s[b>>6] &^= 1 << (b & 63) }

// Len returns the number of buttons in the set.
func (s ButtonSet) Len() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}

// AppendTo appends the buttons in the set to dst in increasing order.
func (s ButtonSet) AppendTo(dst []Button) []Button {
	for w, word := range s {
		for word != 0 {
			i := bits.TrailingZeros64(word)
			dst = append(dst, Button(w*64+i))
			word &^= 1 << i
		}
	}
	return dst
}
