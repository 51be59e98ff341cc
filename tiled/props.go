package tiled

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/metronome-go/metronome/render2d"
)

// PropertyType is the type Tiled gave a custom property.
type PropertyType uint8

const (
	StringProperty PropertyType = iota // the zero value, as in Tiled
	IntProperty
	FloatProperty
	BoolProperty
	ColorProperty
	FileProperty
	ObjectProperty // an object ID, 0 for none
	ClassProperty  // a value of a custom class: see Property.Members
	ListProperty   // a list (Tiled 1.12): its items are Property.Members, in order, unnamed
)

var propTypeNames = [...]string{"string", "int", "float", "bool", "color", "file", "object", "class", "list"}

// propTypesAllowed is the list of types for messages.
const propTypesAllowed = "one of string, int, float, bool, color, file, object, class or list"

func (t PropertyType) String() string {
	if int(t) < len(propTypeNames) {
		return propTypeNames[t]
	}
	return "unknown"
}

func parsePropertyType(s string) (PropertyType, bool) {
	if s == "" {
		return StringProperty, true
	}
	i := slices.Index(propTypeNames[:], s)
	return PropertyType(i), i >= 0
}

// Property is one custom property. Value is its text as Tiled writes it
// in a .tmx file ("true", "42", "0.5", "#ff102030", a file name relative
// to the file that holds it); a class value has Members instead, and a
// list its items as Members in the order of the file, unnamed. Plain
// strings and slices only, so a [Properties] value can be an ECS
// component that the world hash and snapshots cover.
type Property struct {
	Name string
	Type PropertyType
	// CustomType is the custom type's name Tiled records for class and
	// enum properties ("propertytype").
	CustomType string
	Value      string
	Members    Properties
}

// Properties are custom properties sorted by name, as Tiled writes them.
type Properties []Property

// Get returns the property named name.
func (ps Properties) Get(name string) (*Property, bool) {
	i, ok := slices.BinarySearchFunc(ps, name, func(p Property, n string) int { return strings.Compare(p.Name, n) })
	if !ok {
		return nil, false
	}
	return &ps[i], true
}

// String returns the text of property name, "" when absent.
func (ps Properties) String(name string) string {
	if p, ok := ps.Get(name); ok {
		return p.Value
	}
	return ""
}

// Bool returns property name as a boolean: true only for "true" (any
// type, so a string property typed by hand counts too).
func (ps Properties) Bool(name string) bool { return ps.String(name) == "true" }

// Int returns property name as an integer, and false when it is absent
// or not an integer.
func (ps Properties) Int(name string) (int, bool) {
	n, err := strconv.Atoi(ps.String(name))
	return n, err == nil
}

// Float returns property name as a number, and false when it is absent
// or not a number.
func (ps Properties) Float(name string) (float64, bool) {
	f, err := strconv.ParseFloat(ps.String(name), 64)
	return f, err == nil && !math.IsNaN(f)
}

// Color returns property name as a colour, and false when it is absent or
// not a colour.
func (ps Properties) Color(name string) (render2d.Color, bool) {
	return parseColor(ps.String(name))
}

func (ps Properties) sort() {
	slices.SortStableFunc(ps, func(a, b Property) int { return strings.Compare(a.Name, b.Name) })
}

// parseColor reads Tiled's "#RRGGBB" or "#AARRGGBB" (alpha first, unlike
// render2d's text form); the "#" is optional.
func parseColor(s string) (render2d.Color, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	if len(s) != 6 && len(s) != 8 {
		return render2d.Color{}, false
	}
	n, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return render2d.Color{}, false
	}
	a := uint8(255)
	if len(s) == 8 {
		a = uint8(n >> 24)
	}
	return render2d.RGBA8(uint8(n>>16), uint8(n>>8), uint8(n), a), true
}

// formatColor writes c as Tiled's "#AARRGGBB".
func formatColor(c render2d.Color) string {
	q := func(v float32) uint64 { return uint64(min(max(v, 0), 1)*255 + 0.5) }
	n := q(c.A)<<24 | q(c.R)<<16 | q(c.G)<<8 | q(c.B)
	s := strconv.FormatUint(n|1<<32, 16)
	return "#" + s[1:]
}
