package ui

import (
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
)

// Options configure [Add].
type Options struct {
	// Actions are the game's actions, which binding widgets rebind.
	// Required.
	Actions *input.Actions
	// Nav are the actions that drive the UI, from [RegisterNav] (or the
	// game's own actions). Required.
	Nav Nav
	// Theme styles the widgets; the zero Theme means [DefaultTheme].
	Theme Theme
	// Library and Font draw the widgets' text; with a nil Library the
	// widgets are drawn without it (a headless server, a test).
	Library *assets.Library
	Font    assets.Font
}

// State is the UI's part of the game state, a world resource covered by
// the hash and by snapshots: which widget has the focus, whether a text
// field is being edited and which slider the pointer holds.
type State struct {
	Focus   ecs.Entity
	Editing bool
	Held    ecs.Entity
	// HeldDir is the direction held since it was pressed (1 to 4 for up,
	// down, left, right; 0 for none) and HeldFor for how long, in
	// simulation time, less the repeats made (see [RepeatDelay]).
	HeldDir int8
	HeldFor time.Duration
	// Bindings are the bindings of the actions that binding widgets
	// show, as of this tick. The UI makes the game's actions agree with
	// them at the start of every tick, so a rollback to before a rebind
	// (a sync-test, a networked match) undoes it with the rest of the
	// state, and runs the ticks again with the keys they first had.
	Bindings []Bound
}

// Bound is an action and the buttons bound to it.
type Bound struct {
	Action  input.Action
	Buttons []input.Button
}

// UI runs the widgets of an App: it lays them out, moves the focus and
// applies input to them in a PreUpdate system called "ui", so the game's
// Update systems see the actions the widgets fired on the same tick, and
// draws them in an Extract system called "ui draw". Everything it keeps
// between ticks is in the world (the [Widget] components and the [State]
// resource); its own fields are scratch space rebuilt every tick.
type UI struct {
	opts    Options
	widgets *ecs.Filter1[Widget]
	wmap    ecs.Map[Widget]
	state   *State

	items  []item
	focus  []int32 // indices of focusable shown items, in tree order
	seq    int32
	screen geom.Vec2
	draw   drawer
	// A rebind chosen in PreUpdate is applied in PostUpdate, so the
	// press that chose the button does not also act on this tick.
	rebindAct input.Action
	rebindTo  input.Button
	keys      []input.Button
}

// item is one widget's layout record for a tick.
type item struct {
	e      ecs.Entity
	key    uint64 // e as a number; 0 is the zero Entity
	parent uint64
	order  int32
	w      *Widget
	size   geom.Vec2
	rect   geom.Rect
	root   int32 // index of the root panel holding it
	seq    int32
	depth  int16
}

// Add adds the UI's systems and its [State] resource to app. Call it at
// set-up, before the session starts. It reports every problem in opts at
// once.
func Add(app *ecs.App, opts Options) (*UI, error) {
	var errs []error
	if opts.Theme == (Theme{}) {
		opts.Theme = DefaultTheme()
	}
	if err := opts.Theme.Validate(); err != nil {
		errs = append(errs, err)
	}
	if opts.Actions == nil {
		errs = append(errs, errors.New("ui: Options.Actions is nil; give the game's actions (framework.Setup.Actions)"))
	}
	n := opts.Nav
	if n.Up == 0 || n.Down == 0 || n.Left == 0 || n.Right == 0 || n.Accept == 0 {
		errs = append(errs, errors.New("ui: Options.Nav needs at least Up, Down, Left, Right and Accept actions; register them with ui.RegisterNav"))
	}
	if opts.Library != nil && !opts.Font.IsZero() {
		if _, err := opts.Library.Metrics(opts.Font); err != nil {
			errs = append(errs, fmt.Errorf("ui: Options.Font: %w", err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	w := app.World()
	u := &UI{
		opts:    opts,
		widgets: ecs.NewFilter1[Widget](w),
		wmap:    ecs.NewMap[Widget](w),
		state:   ecs.AddStateResource(w, &State{}),
	}
	u.draw.init(u)
	app.AddSystem(ecs.PreUpdate, ecs.System{Name: "ui", Run: u.update})
	app.AddSystem(ecs.PostUpdate, ecs.System{Name: "ui rebind", Run: u.applyRebind})
	app.AddSystem(ecs.Extract, ecs.System{Name: "ui draw", Run: u.draw.run})
	return u, nil
}

// State returns the UI's state resource.
func (u *UI) State() *State { return u.state }

// Focus moves the focus to e (a shown, enabled, focusable widget; anything
// else is corrected to the first such widget on the next tick).
func (u *UI) Focus(e ecs.Entity) { u.state.Focus, u.state.Editing = e, false }

func entityKey(e ecs.Entity) uint64 {
	if e.IsZero() {
		return 0
	}
	return uint64(e.ID())<<32 | uint64(e.Generation())
}

func (u *UI) update(ctx *ecs.Sys) {
	u.layout(ctx)
	u.syncBindings(ctx)
	u.fixFocus()
	if ctx.Input != nil && len(u.focus) > 0 {
		u.handle(ctx, ctx.Input)
	}
}

// screenSize is the logical screen the roots are placed on: the App's
// logical resolution, or the window's when it has none.
func screenSize(ctx *ecs.Sys) geom.Vec2 {
	s := ctx.Screen()
	if s.Width > 0 && s.Height > 0 {
		return geom.Vec2{X: float32(s.Width), Y: float32(s.Height)}
	}
	return ctx.Layout().Size
}

// layout measures and places every widget, numbers them in tree order and
// writes their Rect.
func (u *UI) layout(ctx *ecs.Sys) {
	u.items = u.items[:0]
	q := u.widgets.Query()
	for q.Next() {
		w := q.Get()
		e := q.Entity()
		u.items = append(u.items, item{e: e, key: entityKey(e), parent: entityKey(w.Parent), order: w.Order, w: w, seq: -1})
	}
	slices.SortFunc(u.items, func(a, b item) int {
		switch {
		case a.parent != b.parent:
			return cmpU64(a.parent, b.parent)
		case a.order != b.order:
			return int(a.order) - int(b.order)
		}
		return cmpU64(a.key, b.key)
	})
	u.screen = screenSize(ctx)
	u.seq = 0
	u.focus = u.focus[:0]
	lo, hi := u.children(0)
	for i := lo; i < hi; i++ {
		it := &u.items[i]
		if it.w.Hidden {
			continue
		}
		u.measure(i)
		pos := geom.Vec2{
			// Every product is rounded on its own (ecs's doc, Determinism
			// across machines): Rect is state, and a fused multiply-add
			// would place a widget a bit apart on arm64.
			X: float32(u.screen.X*it.w.Anchor.X) - float32(it.size.X*it.w.Anchor.X) + it.w.Offset.X,
			Y: float32(u.screen.Y*it.w.Anchor.Y) - float32(it.size.Y*it.w.Anchor.Y) + it.w.Offset.Y,
		}
		u.place(i, int32(i), 0, geom.Rect{X: pos.X, Y: pos.Y, W: it.size.X, H: it.size.Y})
	}
	for i := range u.items {
		it := &u.items[i]
		w := it.w
		if it.seq < 0 {
			w.Rect, w.seq, w.depth = geom.Rect{}, -1, 0
			continue
		}
		w.Rect, w.seq, w.depth = it.rect, it.seq, it.depth
	}
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// children returns the range of items whose parent has the key k.
func (u *UI) children(k uint64) (lo, hi int) {
	lo, _ = slices.BinarySearchFunc(u.items, k, func(it item, k uint64) int { return cmpU64(it.parent, k) })
	hi = lo
	for hi < len(u.items) && u.items[hi].parent == k {
		hi++
	}
	return lo, hi
}

// measure computes the size of item i and, for a panel, of everything in
// it.
func (u *UI) measure(i int) geom.Vec2 {
	it := &u.items[i]
	th := &u.opts.Theme
	w := it.w
	var s geom.Vec2
	if w.Kind != KindPanel {
		s = geom.Vec2{X: th.ItemWidth, Y: th.ItemHeight}
	} else {
		lo, hi := u.children(it.key)
		n := 0
		for c := lo; c < hi; c++ {
			if u.items[c].w.Hidden {
				continue
			}
			cs := u.measure(c)
			if w.Stack == Horizontal {
				s.X += cs.X
				s.Y = max(s.Y, cs.Y)
			} else {
				s.Y += cs.Y
				s.X = max(s.X, cs.X)
			}
			n++
		}
		if n > 1 {
			if w.Stack == Horizontal {
				s.X += float32(th.Gap * float32(n-1))
			} else {
				s.Y += float32(th.Gap * float32(n-1))
			}
		}
		s.X += float32(2 * th.Padding)
		s.Y += float32(2 * th.Padding)
	}
	if w.Size.X > 0 {
		s.X = w.Size.X
	}
	if w.Size.Y > 0 {
		s.Y = w.Size.Y
	}
	it.size = s
	return s
}

// place puts item i (measured) at r and lays out its children.
func (u *UI) place(i int, root int32, depth int16, r geom.Rect) {
	it := &u.items[i]
	it.rect, it.root, it.depth, it.seq = r, root, depth, u.seq
	u.seq++
	w := it.w
	if w.Kind.Focusable() && !w.Disabled {
		u.focus = append(u.focus, int32(i))
	}
	if w.Kind != KindPanel {
		return
	}
	th := &u.opts.Theme
	inner := geom.Rect{X: r.X + th.Padding, Y: r.Y + th.Padding, W: max(r.W-float32(2*th.Padding), 0), H: max(r.H-float32(2*th.Padding), 0)}
	at := geom.Vec2{X: inner.X, Y: inner.Y}
	lo, hi := u.children(it.key)
	for c := lo; c < hi; c++ {
		ci := &u.items[c]
		if ci.w.Hidden {
			continue
		}
		cr := geom.Rect{X: at.X, Y: at.Y, W: ci.size.X, H: ci.size.Y}
		if w.Stack == Horizontal {
			cr.H = max(cr.H, inner.H)
			at.X += ci.size.X + th.Gap
		} else {
			cr.W = max(cr.W, inner.W)
			at.Y += ci.size.Y + th.Gap
		}
		u.place(c, root, depth+1, cr)
	}
}

// focused returns the index in u.items of the focused widget, or -1.
func (u *UI) focused() int {
	k := entityKey(u.state.Focus)
	for _, i := range u.focus {
		if u.items[i].key == k {
			return int(i)
		}
	}
	return -1
}

// fixFocus moves the focus to the first focusable widget when the one it
// names is gone, hidden or disabled.
func (u *UI) fixFocus() {
	if u.focused() >= 0 || u.state.Focus.IsZero() && len(u.focus) == 0 {
		return
	}
	u.state.Editing = false
	if len(u.focus) == 0 {
		u.state.Focus = ecs.Entity{}
		return
	}
	u.state.Focus = u.items[u.focus[0]].e
}

// direction is a navigation direction as a unit step.
type direction struct{ x, y float32 }

var (
	noDir    = direction{}
	dirUp    = direction{0, -1}
	dirDown  = direction{0, 1}
	dirLeft  = direction{-1, 0}
	dirRight = direction{1, 0}
)

// handle applies the tick's input to the widgets.
func (u *UI) handle(ctx *ecs.Sys, in *input.Tick) {
	nav := &u.opts.Nav
	st := u.state
	fi := u.focused()
	if st.Editing && fi >= 0 {
		switch u.items[fi].w.Kind {
		case KindTextField:
			u.edit(ctx, in, fi)
			return // the keys typed are text, not navigation
		case KindBinding:
			u.rebind(ctx, in, fi)
			return // the button pressed is the new binding
		}
	}
	st.Editing = false

	// The pointer.
	hover := -1
	p, pointerOK := ctx.ScreenToWorld(ecs.Entity{}, cursor(in))
	if pointerOK {
		for _, i := range u.focus {
			if contains(u.items[i].rect, p) {
				hover = int(i) // later in tree order draws on top
			}
		}
	}
	if mx, my := in.Motion(); (mx != 0 || my != 0) && hover >= 0 {
		fi = hover
		st.Focus = u.items[fi].e
	}
	if nav.Point != 0 {
		if in.Pressed(nav.Point) && hover >= 0 {
			fi = hover
			st.Focus = u.items[fi].e
			switch v := valueRect(u.items[fi].rect); u.items[fi].w.Kind {
			case KindSlider:
				st.Held = st.Focus
				u.dragSlider(ctx, fi, p)
			case KindChoice:
				// The left half of the value goes back, the right half on.
				if p.X < v.X+v.W/2 {
					u.step(ctx, fi, -1)
				} else {
					u.step(ctx, fi, 1)
				}
			default:
				u.activate(ctx, fi)
			}
		} else if in.Down(nav.Point) && st.Held == st.Focus && fi >= 0 && pointerOK {
			u.dragSlider(ctx, fi, p)
		}
		if !in.Down(nav.Point) {
			st.Held = ecs.Entity{}
		}
	}

	// Directions, from buttons or a stick leaving its dead zone.
	dir := noDir
	switch {
	case in.Pressed(nav.Up):
		dir = dirUp
	case in.Pressed(nav.Down):
		dir = dirDown
	case in.Pressed(nav.Left):
		dir = dirLeft
	case in.Pressed(nav.Right):
		dir = dirRight
	}
	if dir == noDir && nav.MoveY != 0 {
		if s := in.Action(nav.MoveY); s.Presses > 0 {
			dir = stickDir(s, dirUp, dirDown)
		}
	}
	if dir == noDir && nav.MoveX != 0 {
		if s := in.Action(nav.MoveX); s.Presses > 0 {
			dir = stickDir(s, dirLeft, dirRight)
		}
	}
	dir = u.repeat(ctx, in, dir)
	if dir != noDir && fi >= 0 {
		w := u.items[fi].w
		if dir.y == 0 && (w.Kind == KindSlider || w.Kind == KindChoice) {
			u.step(ctx, fi, int32(dir.x))
		} else if next := u.nearest(fi, dir); next >= 0 {
			fi = next
			st.Focus = u.items[fi].e
		}
	}
	if fi >= 0 && in.Pressed(nav.Accept) {
		u.activate(ctx, fi)
	}
	if fi >= 0 && nav.Back != 0 && in.Pressed(nav.Back) {
		if root := u.items[u.items[fi].root].w; root.Action != 0 {
			ctx.Input.Fire(root.Action)
		}
	}
}

// Holding a direction repeats it: after RepeatDelay, then every
// RepeatEvery, counted in the ticks' simulation time so a replay repeats
// on the same ticks.
const (
	RepeatDelay = 400 * time.Millisecond
	RepeatEvery = 100 * time.Millisecond
)

// repeat returns the direction pressed this tick, or, while one is held
// since an earlier tick, that direction each time it repeats.
func (u *UI) repeat(ctx *ecs.Sys, in *input.Tick, pressed direction) direction {
	st := u.state
	if pressed != noDir {
		st.HeldDir, st.HeldFor = dirCode(pressed), 0
		return pressed
	}
	held := u.heldDir(in)
	if held == noDir || dirCode(held) != st.HeldDir {
		st.HeldDir, st.HeldFor = 0, 0
		return noDir
	}
	st.HeldFor += ctx.Time.Delta
	if st.HeldFor < RepeatDelay {
		return noDir
	}
	st.HeldFor -= RepeatEvery
	return held
}

// heldDir returns the direction held down at the end of the tick.
func (u *UI) heldDir(in *input.Tick) direction {
	nav := &u.opts.Nav
	switch {
	case in.Down(nav.Up):
		return dirUp
	case in.Down(nav.Down):
		return dirDown
	case in.Down(nav.Left):
		return dirLeft
	case in.Down(nav.Right):
		return dirRight
	}
	if nav.MoveY != 0 {
		if s := in.Action(nav.MoveY); s.Down {
			return stickDir(s, dirUp, dirDown)
		}
	}
	if nav.MoveX != 0 {
		if s := in.Action(nav.MoveX); s.Down {
			return stickDir(s, dirLeft, dirRight)
		}
	}
	return noDir
}

// dirCode numbers a direction for the state: 0 for none.
func dirCode(d direction) int8 {
	switch d {
	case dirUp:
		return 1
	case dirDown:
		return 2
	case dirLeft:
		return 3
	case dirRight:
		return 4
	}
	return 0
}

func cursor(in *input.Tick) geom.Vec2 {
	x, y := in.Cursor()
	return geom.Vec2{X: float32(x), Y: float32(y)}
}

func contains(r geom.Rect, p geom.Vec2) bool {
	return p.X >= r.X && p.Y >= r.Y && p.X < r.X+r.W && p.Y < r.Y+r.H
}

// stickDir turns an analog action that left its dead zone into neg or pos
// by the sign of its value (its peak when it came back inside the tick).
func stickDir(s input.Stats, neg, pos direction) direction {
	v := s.Value
	if v == 0 {
		v = s.Peak
	}
	switch {
	case v < 0:
		return neg
	case v > 0:
		return pos
	}
	return noDir
}

// nearest returns the focusable item nearest to item from in direction d,
// or -1. A candidate lies ahead when its near side is past from's centre
// and its far side past from's far side (so a wide widget above a row is
// not to the right of the row's first button); the score is the distance
// from from's far side to the candidate's near side plus twice the gap
// between the two across d (none when they overlap across it, as a
// button under a row does), the first in tree order winning a tie.
func (u *UI) nearest(from int, d direction) int {
	f := span(u.items[from].rect, d)
	best, bestScore := -1, float32(0)
	for _, i := range u.focus {
		if int(i) == from {
			continue
		}
		c := span(u.items[i].rect, d)
		if c.near <= (f.near+f.far)/2 || c.far <= f.far {
			continue
		}
		score := max(c.near-f.far, 0) + float32(2*max(c.lo-f.hi, f.lo-c.hi, 0))
		if best < 0 || score < bestScore {
			best, bestScore = int(i), score
		}
	}
	return best
}

// extent is a rectangle seen along a direction: its near and far sides
// along it (growing the way it points) and its span lo to hi across it.
type extent struct{ near, far, lo, hi float32 }

func span(r geom.Rect, d direction) extent {
	switch {
	case d.x > 0:
		return extent{r.X, r.X + r.W, r.Y, r.Y + r.H}
	case d.x < 0:
		return extent{-(r.X + r.W), -r.X, r.Y, r.Y + r.H}
	case d.y > 0:
		return extent{r.Y, r.Y + r.H, r.X, r.X + r.W}
	}
	return extent{-(r.Y + r.H), -r.Y, r.X, r.X + r.W}
}

// fire fires the widget's action, if it has one.
func fire(ctx *ecs.Sys, w *Widget) {
	if w.Action != 0 {
		ctx.Input.Fire(w.Action)
	}
}

// activate does what accepting item i does.
func (u *UI) activate(ctx *ecs.Sys, i int) {
	w := u.items[i].w
	switch w.Kind {
	case KindButton:
		fire(ctx, w)
	case KindToggle:
		w.On = !w.On
		fire(ctx, w)
	case KindChoice:
		u.step(ctx, i, 1)
	case KindTextField, KindBinding:
		u.state.Editing = true
	}
}

// rebind chooses the first button pressed in the tick as the new binding
// of the binding widget at item i's action, in place of the bindings of
// that button's device; Escape cancels.
func (u *UI) rebind(ctx *ecs.Sys, in *input.Tick, i int) {
	w := u.items[i].w
	for _, r := range in.Records() {
		if r.Kind != input.RecordPress || r.Synthetic {
			continue
		}
		u.state.Editing = false
		if r.Button == input.KeyEscape {
			return
		}
		u.rebindAct, u.rebindTo = w.Action, r.Button
		return
	}
}

// applyRebind makes the rebind chosen this tick, if any.
func (u *UI) applyRebind(ctx *ecs.Sys) {
	act, b := u.rebindAct, u.rebindTo
	if act == 0 {
		return
	}
	u.rebindAct, u.rebindTo = 0, 0
	acts := u.opts.Actions
	if acts.Analog(act) {
		return
	}
	bs := acts.Bindings(act)
	bs = slices.DeleteFunc(bs, func(o input.Button) bool { return o.Device() == b.Device() })
	if err := acts.Rebind(act, append(bs, b)...); err != nil {
		ctx.Fail(fmt.Errorf("ui: rebinding %q: %w", acts.Name(act), err))
		return
	}
	u.remember(act)
}

// bound returns the entry of act in the state's bindings, or nil.
func (u *UI) bound(act input.Action) *Bound {
	for i := range u.state.Bindings {
		if b := &u.state.Bindings[i]; b.Action == act {
			return b
		}
	}
	return nil
}

// remember records act's current bindings in the state.
func (u *UI) remember(act input.Action) {
	b := u.bound(act)
	if b == nil {
		u.state.Bindings = append(u.state.Bindings, Bound{Action: act})
		b = &u.state.Bindings[len(u.state.Bindings)-1]
	}
	b.Buttons = u.opts.Actions.AppendBindings(b.Buttons[:0], act)
}

// syncBindings records the bindings of actions that binding widgets show
// for the first time, and rebinds the actions whose bindings differ from
// the state's (after a rollback across a rebind).
func (u *UI) syncBindings(ctx *ecs.Sys) {
	acts := u.opts.Actions
	for i := range u.items {
		if w := u.items[i].w; w.Kind == KindBinding && w.Action != 0 && u.bound(w.Action) == nil && !acts.Analog(w.Action) {
			u.remember(w.Action)
		}
	}
	for i := range u.state.Bindings {
		b := &u.state.Bindings[i]
		u.keys = acts.AppendBindings(u.keys[:0], b.Action)
		if slices.Equal(u.keys, b.Buttons) {
			continue
		}
		if err := acts.Rebind(b.Action, b.Buttons...); err != nil {
			ctx.Fail(fmt.Errorf("ui: restoring the bindings of %q: %w", acts.Name(b.Action), err))
			return
		}
		u.remember(b.Action)
	}
}

// step moves a slider or choice by n steps: a slider stops at its ends, a
// choice wraps around.
func (u *UI) step(ctx *ecs.Sys, i int, n int32) {
	w := u.items[i].w
	old := w.Value
	switch w.Kind {
	case KindSlider:
		w.Value = clampValue(w, int64(w.Value)+int64(n)*int64(max(w.Step, 1)))
	case KindChoice:
		if k := int32(len(w.Items)); k > 0 {
			w.Value = ((w.Value+n)%k + k) % k
		}
	}
	if w.Value != old {
		fire(ctx, w)
	}
}

func clampValue(w *Widget, v int64) int32 {
	lo, hi := int64(w.Min), int64(max(w.Max, w.Min))
	return int32(min(max(v, lo), hi))
}

// valueRect is the part of a widget that shows its value: the right half,
// the caption being on the left.
func valueRect(r geom.Rect) geom.Rect {
	return geom.Rect{X: r.X + r.W/2, Y: r.Y, W: r.W / 2, H: r.H}
}

// dragSlider sets the slider at item i to the step nearest the pointer p.
func (u *UI) dragSlider(ctx *ecs.Sys, i int, p geom.Vec2) {
	w := u.items[i].w
	v := valueRect(u.items[i].rect)
	if v.W <= 0 || w.Max <= w.Min {
		return
	}
	t := min(max((p.X-v.X)/v.W, 0), 1)
	step := int64(max(w.Step, 1))
	span := int64(w.Max) - int64(w.Min)
	steps := int64(float64(float64(t)*float64(span))/float64(step) + 0.5)
	old := w.Value
	w.Value = clampValue(w, int64(w.Min)+steps*step)
	if w.Value != old {
		fire(ctx, w)
	}
}

// edit applies the tick's text to the text field at item i being edited.
// Enter, gamepad A or the back
// action finishes it and fires the field's action; so does a pointer
// press outside the field.
func (u *UI) edit(ctx *ecs.Sys, in *input.Tick, i int) {
	w := u.items[i].w
	limit := int(w.MaxRunes)
	if limit <= 0 {
		limit = 64
	}
	for _, r := range in.Runes() {
		if utf8.RuneCountInString(w.Input) >= limit {
			break
		}
		w.Input = string(utf8.AppendRune([]byte(w.Input), r))
	}
	for range in.Button(input.KeyBackspace).Presses {
		if _, n := utf8.DecodeLastRuneInString(w.Input); n > 0 {
			w.Input = w.Input[:len(w.Input)-n]
		}
	}
	nav := &u.opts.Nav
	done := in.Button(input.KeyEnter).Pressed() || in.Button(input.KeyKPEnter).Pressed() ||
		in.Button(input.GamepadA).Pressed() || nav.Back != 0 && in.Pressed(nav.Back)
	if !done && nav.Point != 0 && in.Pressed(nav.Point) {
		p, ok := ctx.ScreenToWorld(ecs.Entity{}, cursor(in))
		done = !ok || !contains(u.items[i].rect, p)
	}
	if done {
		u.state.Editing = false
		fire(ctx, w)
	}
}

// Find returns the widget whose Text is text (the one of lowest tree
// order when several are), or the zero Entity. Widgets spawned through a
// [Builder] exist from the next sync point; Find is how a game or a test
// finds them afterwards by their caption.
func (u *UI) Find(text string) ecs.Entity {
	var found ecs.Entity
	best := int32(-1)
	q := u.widgets.Query()
	for q.Next() {
		w := q.Get()
		if w.Text != text {
			continue
		}
		if found.IsZero() || w.seq >= 0 && (best < 0 || w.seq < best) {
			found, best = q.Entity(), w.seq
		}
	}
	return found
}

// Widget returns e's Widget, or nil when e is not a live widget. The
// pointer is valid until the next sync point.
func (u *UI) Widget(e ecs.Entity) *Widget { return u.wmap.Get(e) }
