package query

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/metronome-go/metronome/ecs"
)

// TypeError is a condition that parses but does not fit the game's
// components: a name no component has, a field the component lacks, a
// comparison of a number with a boolean. Pos is a byte offset into the
// expression.
type TypeError struct {
	Expr string
	Pos  int
	Msg  string
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("query: %q at byte %d: %s", e.Expr, e.Pos, e.Msg)
}

// Field is a path to one number or boolean inside a component type, such
// as Ball.Velocity.X: what a condition compares and what [WhoWrote]
// watches.
type Field struct {
	// Type is the component type.
	Type ecs.ComponentType
	// Path is the path as written, component name first.
	Path string
	// Kind is the leaf's kind: a number of any width, or a bool.
	Kind reflect.Kind

	index []int
}

// Read returns the field's value in e's component, as a float64 for a
// number and 0 or 1 for a bool, and whether e has the component.
func (f *Field) Read(w *ecs.World, e ecs.Entity) (float64, bool) {
	v, ok := w.Component(e, f.Type)
	if !ok {
		return 0, false
	}
	return leafValue(v.FieldByIndex(f.index)), true
}

// Format returns the value of the field in e as Go would print it, or
// "(none)" when e lacks the component.
func (f *Field) Format(w *ecs.World, e ecs.Entity) string {
	v, ok := w.Component(e, f.Type)
	if !ok {
		return "(none)"
	}
	return fmt.Sprint(v.FieldByIndex(f.index).Interface())
}

func leafValue(v reflect.Value) float64 {
	switch {
	case v.Kind() == reflect.Bool:
		if v.Bool() {
			return 1
		}
		return 0
	case v.CanInt():
		return float64(v.Int())
	case v.CanUint():
		return float64(v.Uint())
	default:
		return v.Float()
	}
}

func isNumber(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Uint64 || k == reflect.Float32 || k == reflect.Float64
}

// ResolveField finds the field at path (Component.Field.Sub...) among
// types. The component is named by its Go type's name (Ball) or with its
// package (main.Ball); the leaf must be a number or a bool. The error
// names what was wrong and what exists.
func ResolveField(types []ecs.ComponentType, path string) (*Field, error) {
	parts := strings.Split(path, ".")
	f, err := resolve(types, parts)
	if err != nil {
		return nil, fmt.Errorf("query: field %q: %s", path, err.msg)
	}
	return f, nil
}

type resolveError struct{ msg string }

func resolve(types []ecs.ComponentType, parts []string) (*Field, *resolveError) {
	if len(parts) < 2 {
		return nil, &resolveError{msg: "name a field of a component as Component.Field (such as Health.Value)"}
	}
	var matches []ecs.ComponentType
	rest := parts[1:]
	for _, t := range types {
		if t.Type().Kind() != reflect.Struct {
			continue
		}
		if t.Type().Name() == parts[0] {
			matches = append(matches, t)
		}
	}
	if len(matches) == 0 && len(parts) > 2 {
		// main.Ball.X: the component named with its package.
		for _, t := range types {
			if t.Type().Kind() == reflect.Struct && t.String() == parts[0]+"."+parts[1] {
				matches = append(matches, t)
				rest = parts[2:]
			}
		}
	}
	switch len(matches) {
	case 0:
		return nil, &resolveError{msg: fmt.Sprintf("no component type is named %s; the world has %s", parts[0], typeNames(types))}
	case 1:
	default:
		var names []string
		for _, m := range matches {
			names = append(names, m.String())
		}
		return nil, &resolveError{msg: fmt.Sprintf("%s names %d component types (%s): write it with its package", parts[0], len(matches), strings.Join(names, ", "))}
	}
	t := matches[0]
	f := &Field{Type: t, Path: strings.Join(parts, ".")}
	cur := t.Type()
	for i, name := range rest {
		if cur.Kind() != reflect.Struct {
			return nil, &resolveError{msg: fmt.Sprintf("%s is a %v, which has no field %s", strings.Join(parts[:len(parts)-len(rest)+i], "."), cur, name)}
		}
		sf, ok := cur.FieldByName(name)
		if !ok {
			return nil, &resolveError{msg: fmt.Sprintf("%v has no field %s; its fields are %s", cur, name, fieldNames(cur))}
		}
		f.index = append(f.index, sf.Index...)
		cur = sf.Type
	}
	if cur.Kind() != reflect.Bool && !isNumber(cur.Kind()) {
		return nil, &resolveError{msg: fmt.Sprintf("it is a %v; a condition compares numbers (integers and floats of any width) and bools: name one of its number or bool fields", cur)}
	}
	f.Kind = cur.Kind()
	return f, nil
}

func typeNames(types []ecs.ComponentType) string {
	var names []string
	for _, t := range types {
		if t.Type().Kind() == reflect.Struct {
			names = append(names, t.Type().Name())
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) == 0 {
		return "no component types yet"
	}
	return strings.Join(names, ", ")
}

func fieldNames(t reflect.Type) string {
	var names []string
	for i := range t.NumField() {
		names = append(names, t.Field(i).Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// Cond is an expression checked against a world's component types:
// every name resolved, every operand of the right type. Build one with
// [Compile].
type Cond struct {
	expr   *Expr
	fields []*Field // every field the condition reads, once each
	root   cnode
}

// String returns the condition as written.
func (c *Cond) String() string { return c.expr.src }

// Fields returns the fields the condition reads.
func (c *Cond) Fields() []*Field { return c.fields }

type cnode interface {
	eval(vals []float64) float64
}

type (
	cField   int // index into Cond.fields
	cConst   float64
	cNot     struct{ x cnode }
	cAnd     struct{ l, r cnode }
	cOr      struct{ l, r cnode }
	cCompare struct {
		op   string
		l, r cnode
	}
)

func (n cField) eval(v []float64) float64 { return v[n] }
func (n cConst) eval([]float64) float64   { return float64(n) }
func (n cNot) eval(v []float64) float64 {
	if n.x.eval(v) != 0 {
		return 0
	}
	return 1
}

func (n cAnd) eval(v []float64) float64 {
	if n.l.eval(v) != 0 && n.r.eval(v) != 0 {
		return 1
	}
	return 0
}

func (n cOr) eval(v []float64) float64 {
	if n.l.eval(v) != 0 || n.r.eval(v) != 0 {
		return 1
	}
	return 0
}

func (n cCompare) eval(v []float64) float64 {
	l, r := n.l.eval(v), n.r.eval(v)
	var ok bool
	switch n.op {
	case "==":
		ok = l == r
	case "!=":
		ok = l != r
	case "<":
		ok = l < r
	case "<=":
		ok = l <= r
	case ">":
		ok = l > r
	case ">=":
		ok = l >= r
	}
	if ok {
		return 1
	}
	return 0
}

type valType uint8

const (
	numType valType = iota
	boolType
)

func (t valType) String() string {
	if t == boolType {
		return "bool"
	}
	return "number"
}

// Compile checks e against types (a world's, from
// [ecs.World.ComponentTypes]) and returns the condition to evaluate. It
// reports every problem at once, each naming the place, what is wrong
// and what is allowed.
func Compile(e *Expr, types []ecs.ComponentType) (*Cond, error) {
	c := &compiler{cond: &Cond{expr: e}, types: types}
	root, t := c.node(e.root)
	if len(c.errs) == 0 && t != boolType {
		c.fail(e.root.pos(), "the expression is a number; a condition must be true or false: compare it (such as Health.Value <= 0)")
	}
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	c.cond.root = root
	return c.cond, nil
}

// Prepare parses src and compiles it against types.
func Prepare(src string, types []ecs.ComponentType) (*Cond, error) {
	e, err := Parse(src)
	if err != nil {
		return nil, err
	}
	return Compile(e, types)
}

type compiler struct {
	cond  *Cond
	types []ecs.ComponentType
	errs  []error
}

func (c *compiler) fail(at int, msg string) {
	c.errs = append(c.errs, &TypeError{Expr: c.cond.expr.src, Pos: at, Msg: msg})
}

func (c *compiler) node(n node) (cnode, valType) {
	switch n := n.(type) {
	case *number:
		return cConst(n.val), numType
	case *boolean:
		if n.val {
			return cConst(1), boolType
		}
		return cConst(0), boolType
	case *fieldRef:
		f, err := resolve(c.types, n.path)
		if err != nil {
			c.fail(n.at, fmt.Sprintf("%s: %s", strings.Join(n.path, "."), err.msg))
			return cConst(0), numType
		}
		for i, have := range c.cond.fields {
			if have.Type == f.Type && slices.Equal(have.index, f.index) {
				return cField(i), kindType(f.Kind)
			}
		}
		c.cond.fields = append(c.cond.fields, f)
		return cField(len(c.cond.fields) - 1), kindType(f.Kind)
	case *not:
		x, t := c.node(n.x)
		if t != boolType {
			c.fail(n.at, "! applies to a bool (a comparison or a bool field), not to a number")
		}
		return cNot{x}, boolType
	case *binary:
		l, lt := c.node(n.l)
		r, rt := c.node(n.r)
		switch n.op {
		case "&&", "||":
			if lt != boolType || rt != boolType {
				c.fail(n.at, fmt.Sprintf("%s joins two bools (comparisons or bool fields); here it has a %v and a %v", n.op, lt, rt))
			}
			if n.op == "&&" {
				return cAnd{l, r}, boolType
			}
			return cOr{l, r}, boolType
		default:
			switch {
			case lt != rt:
				c.fail(n.at, fmt.Sprintf("%s compares a %v with a %v; compare numbers with numbers and bools with bools", n.op, lt, rt))
			case lt == boolType && n.op != "==" && n.op != "!=":
				c.fail(n.at, fmt.Sprintf("%s orders numbers; bools are compared with == and != only", n.op))
			}
			return cCompare{op: n.op, l: c.narrow(l, r), r: c.narrow(r, l)}, boolType
		}
	}
	panic(fmt.Sprintf("query: unknown node %T", n))
}

// narrow rounds a constant compared with a float32 field to float32, so
// that Ball.Y == 412.53333, the value as Go prints the float32, holds.
func (c *compiler) narrow(x, other cnode) cnode {
	k, isConst := x.(cConst)
	f, isField := other.(cField)
	if isConst && isField && c.cond.fields[f].Kind == reflect.Float32 {
		return cConst(float32(k))
	}
	return x
}

func kindType(k reflect.Kind) valType {
	if k == reflect.Bool {
		return boolType
	}
	return numType
}

// Match is an entity for which a condition holds.
type Match struct {
	Entity ecs.Entity
	// Values holds the value of each of the condition's fields
	// ([Cond.Fields]) in the entity, formatted as Go prints them.
	Values []string
}

// Eval returns the entities of w for which c holds: those that have
// every component c reads and whose values make it true, by entity ID. It reads the world and changes nothing; call it between
// ticks or from an observer ([ecs.App.ObserveSystems]).
func (c *Cond) Eval(w *ecs.World) []Match {
	if len(c.fields) == 0 {
		// A condition of constants only: it holds or not for the world.
		if c.root.eval(nil) != 0 {
			return []Match{{}}
		}
		return nil
	}
	var out []Match
	vals := make([]float64, len(c.fields))
	for _, e := range w.EntitiesWith(c.fields[0].Type) {
		ok := true
		for i, f := range c.fields {
			if vals[i], ok = f.Read(w, e); !ok {
				break
			}
		}
		if !ok || c.root.eval(vals) == 0 {
			continue
		}
		m := Match{Entity: e}
		for _, f := range c.fields {
			m.Values = append(m.Values, f.Format(w, e))
		}
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b Match) int { return cmp.Compare(a.Entity.ID(), b.Entity.ID()) })
	return out
}
