package ecs

import (
	"encoding/binary"
	"fmt"
	"hash/crc64"
	"math"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/binio"
	arche "github.com/mlange-42/arche/ecs"
)

// A snapshot's binary form, for sending it to another process of the
// same game (a peer that fell too far behind, a player rejoining, a
// spectator arriving late): [Snapshot.AppendBinary] writes it and
// [App.DecodeSnapshot] reads it into a Snapshot of another App.
//
// Every number is little-endian and fixed-width, and Go's int is 64 bits
// on every platform the project builds for (amd64, arm64 and wasm), so
// the same snapshot gives the same bytes everywhere. The form:
//
//	header: magic "MTNMSNAP", version u32, body length u64, CRC-64 (ECMA)
//	        of the body u64
//	body:   the types it holds: count u32, then per type its role (u8:
//	        built-in, component, resource, state), name (u32 length and
//	        bytes), layout fingerprint u64 and whether its values are in
//	        the snapshot (u8)
//	        the entity pool: length u32, each entry's index and generation
//	        (u32 each), the next free index and the free count (u32 each)
//	        the live entities, archetype by archetype in storage order:
//	        count u32, each index u32 (its generation is the pool's)
//	        the archetypes: count u32, each its entity count u32 and its
//	        component types (u16 count, u16 index into the component
//	        types above)
//	        per component type: count u32, each entity index u32 and,
//	        when the type table says its values are in the snapshot, the
//	        value, leaf by leaf (layout.go's appendWire)
//	        per state resource: present u8 and the value
//	        per [States]: current and next state, pending u8,
//	        transitions u64
//	        the ticks of play u64, game start i64, paused u8, pause
//	        requested u8, command epoch u32, [Time] and [input.Window] as
//	        values, the random source (u32 length, math/rand/v2's binary
//	        form of the PCG), each system's skipped cosmetic time (u32
//	        count, i64 each)
//	        the gameplay queue and the timers (schedule's binary form), an
//	        [Event] as Kind i64, Entity and Value f64
//
// The version changes with the form. The fingerprints digest every
// type's fields, names and types (layout.go, typeFingerprint), so a
// snapshot of another build or another game is refused, naming the first
// type that differs.

// SnapshotVersion is the version of the binary form that
// [Snapshot.AppendBinary] writes and [App.DecodeSnapshot] reads.
const SnapshotVersion = 1

const (
	snapshotMagic  = "MTNMSNAP"
	snapshotHeader = len(snapshotMagic) + 4 + 8 + 8
)

var crcTable = crc64.MakeTable(crc64.ECMA)

var le = binary.LittleEndian

// Roles of the types in a snapshot's type table.
const (
	roleBuiltin   = 1
	roleComponent = 2
	roleResource  = 3
	roleState     = 4
)

var roleNames = [...]string{roleBuiltin: "built-in type", roleComponent: "component type", roleResource: "resource type", roleState: "state type"}

// builtinTypes are the types of the built-in parts of every snapshot, in
// the order of the type table.
var builtinTypes = [...]ComponentType{TypeOf[Time](), TypeOf[input.Window](), TypeOf[wireEvent]()}

// wireEvent is what travels of an [Event]: all but its Run function.
type wireEvent struct {
	Kind   int
	Entity Entity
	Value  float64
}

// AppendBinary appends the binary form of s (see [App.DecodeSnapshot])
// to b and returns the extended slice, for sending s to another process
// of the same game. It allocates nothing when b has room for it.
//
// What travels is what a restore brings back, the state the world hash
// covers (see [Snapshot]), and also the values of presentation-only and
// excluded component types, so that a receiver's entities look as the
// sender's did; a presentation-only or excluded type that is not plain
// data cannot travel: its entities arrive with its zero value. An [Event]
// pending in the gameplay queue or the timers whose Run is set cannot
// travel either, since a function cannot be sent: AppendBinary then fails,
// naming the event's Kind. A game that sends snapshots schedules plain
// events and handles them by Kind in its systems ([Sys.Events],
// [Sys.TimerEvents]).
//
// It fails, appending nothing, for an empty snapshot. Simulation
// goroutine, like the App.
func (s *Snapshot) AppendBinary(b []byte) ([]byte, error) {
	if !s.valid {
		return b, fmt.Errorf("%w: AppendBinary of an empty snapshot", ErrSnapshot)
	}
	start := len(b)
	b = append(b, snapshotMagic...)
	b = binio.AppendU32(b, SnapshotVersion)
	b = binio.AppendU64(b, 0) // body length, set below
	b = binio.AppendU64(b, 0) // checksum, set below
	body := len(b)
	b, err := s.appendBody(b)
	if err != nil {
		return b[:start], err
	}
	le.PutUint64(b[body-16:], uint64(len(b)-body))
	le.PutUint64(b[body-8:], crc64.Update(0, crcTable, b[body:]))
	return b, nil
}

func (s *Snapshot) appendBody(b []byte) ([]byte, error) {
	w := s.app.world
	ws := &s.world

	// The type table.
	n := len(builtinTypes) + len(ws.comps) + len(s.states)
	for _, r := range ws.res {
		if r != nil {
			n++
		}
	}
	b = binio.AppendU32(b, uint32(n))
	for _, t := range builtinTypes {
		b = w.appendType(b, roleBuiltin, t)
	}
	for _, c := range ws.comps {
		b = w.appendType(b, roleComponent, c.typ())
	}
	for _, r := range ws.res {
		if r != nil {
			b = w.appendType(b, roleResource, r.(wireValue).typ())
		}
	}
	for _, st := range s.states {
		b = w.appendType(b, roleState, st.(wireValue).typ())
	}
	for _, t := range builtinTypes {
		if err := w.layoutOf(t).err; err != nil {
			return b, fmt.Errorf("%w: built-in type %v cannot be sent: %w", ErrSnapshot, t, err)
		}
	}

	// The entity pool, the live entities and their archetypes.
	b = binio.AppendU32(b, uint32(len(ws.dump.Entities)))
	for _, e := range ws.dump.Entities {
		b = binio.AppendU32(b, e.ID())
		b = binio.AppendU32(b, e.Generation())
	}
	b = binio.AppendU32(b, ws.dump.Next)
	b = binio.AppendU32(b, ws.dump.Available)
	b = binio.AppendU32(b, uint32(len(ws.ents)))
	for _, e := range ws.ents {
		b = binio.AppendU32(b, e.ID())
	}
	b = binio.AppendU32(b, uint32(len(ws.runs)))
	for _, r := range ws.runs {
		b = binio.AppendU32(b, uint32(r.n))
		at := len(b)
		b = binio.AppendU16(b, 0)
		k := 0
		for i, c := range ws.comps {
			if r.mask.Get(c.(wireComponent).archeID(w)) {
				b = binio.AppendU16(b, uint16(i))
				k++
			}
		}
		le.PutUint16(b[at:], uint16(k))
	}
	for _, c := range ws.comps {
		b = c.(wireComponent).appendWire(w, b)
	}
	for _, r := range ws.res {
		if r != nil {
			b = r.(wireValue).appendWire(w, b)
		}
	}
	for _, st := range s.states {
		b = st.(wireValue).appendWire(w, b)
	}

	// The App's own state.
	b = binio.AppendU64(b, s.ticks)
	b = binio.AppendU64(b, uint64(s.gameStart))
	b = binio.AppendBool(b, s.paused)
	b = binio.AppendBool(b, s.pauseReq)
	b = binio.AppendU32(b, s.epoch)
	b = appendWireOf(w.layoutOf(builtinTypes[0]), b, &s.time)
	b = appendWireOf(w.layoutOf(builtinTypes[1]), b, &s.window)
	at := len(b)
	b = binio.AppendU32(b, 0)
	b, err := s.pcg.AppendBinary(b)
	if err != nil {
		return b, fmt.Errorf("%w: random source: %w", ErrSnapshot, err)
	}
	le.PutUint32(b[at:], uint32(len(b)-at-4))
	b = binio.AppendU32(b, uint32(len(s.cosmetic)))
	for _, d := range s.cosmetic {
		b = binio.AppendU64(b, uint64(d))
	}
	if w.wireQueue == nil { // made once, so that encoding allocates nothing
		w.wireQueue, w.wireTimers = w.eventWriter("gameplay queue"), w.eventWriter("timers")
	}
	if b, err = s.queue.AppendBinary(b, w.wireQueue); err != nil {
		return b, err
	}
	if b, err = s.timers.AppendBinary(b, w.wireTimers); err != nil {
		return b, err
	}
	return b, nil
}

func (w *World) appendType(b []byte, role byte, t ComponentType) []byte {
	l := w.layoutOf(t)
	b = append(b, role)
	name := t.String()
	b = binio.AppendU32(b, uint32(len(name)))
	b = append(b, name...)
	b = binio.AppendU64(b, l.fingerprint)
	return binio.AppendBool(b, l.err == nil)
}

// eventWriter returns the payload writer of the gameplay queue or the
// timers (named by where).
func (w *World) eventWriter(where string) func([]byte, *Event) ([]byte, error) {
	l := w.layoutOf(builtinTypes[2])
	return func(b []byte, ev *Event) ([]byte, error) {
		if ev.Run != nil {
			return b, fmt.Errorf("%w: the %s holds an event of Kind %d with a Run function, which cannot be sent to another process: schedule an event without Run and act on its Kind in a system (Sys.Events, Sys.TimerEvents)", ErrSnapshot, where, ev.Kind)
		}
		we := wireEvent{Kind: ev.Kind, Entity: ev.Entity, Value: ev.Value}
		return appendWireOf(l, b, &we), nil
	}
}

// wireComponent is what the binary form needs of a componentSnapshot.
type wireComponent interface {
	archeID(w *World) arche.ID
	appendWire(w *World, b []byte) []byte
	decodeWire(w *World, d *wireDecoder, sent bool)
	// empty drops the values, for a type the snapshot does not hold.
	empty()
	wireEntities() []arche.Entity
}

// wireValue is what the binary form needs of a resource's or a state
// machine's valueSnapshot.
type wireValue interface {
	typ() ComponentType
	appendWire(w *World, b []byte) []byte
	decodeWire(w *World, d *wireDecoder)
}

func (c *componentValues[T]) archeID(w *World) arche.ID { return c.st.id(&w.w) }

func (c *componentValues[T]) wireEntities() []arche.Entity { return c.ents }

func (c *componentValues[T]) appendWire(w *World, b []byte) []byte {
	l := w.layoutOf(c.st.ct)
	b = binio.AppendU32(b, uint32(len(c.ents)))
	for i, e := range c.ents {
		b = binio.AppendU32(b, e.ID())
		if l.err == nil {
			b = appendWireOf(l, b, &c.vals[i])
		}
	}
	return b
}

func (c *componentValues[T]) decodeWire(w *World, d *wireDecoder, sent bool) {
	l := w.layoutOf(c.st.ct)
	n := d.count(4, c.st.ct.String()+" entities")
	c.empty()
	for range n {
		if d.Err() != nil {
			return
		}
		c.ents = append(c.ents, d.live(d.U32(), c.st.ct.String()))
		var zero T
		c.vals = append(c.vals, zero)
		if sent {
			decodeWireOf(l, d, &c.vals[len(c.vals)-1])
		}
	}
}

func (c *componentValues[T]) empty() {
	c.ents = c.ents[:0]
	clear(c.vals[:cap(c.vals)])
	c.vals = c.vals[:0]
}

func (r *resourceValue[T]) typ() ComponentType { return TypeOf[T]() }

func (r *resourceValue[T]) appendWire(w *World, b []byte) []byte {
	b = binio.AppendBool(b, r.has)
	if r.has {
		b = appendWireOf(r.l, b, &r.v)
	}
	return b
}

func (r *resourceValue[T]) decodeWire(w *World, d *wireDecoder) {
	r.has = d.Flag("resource " + r.typ().String())
	if r.has {
		decodeWireOf(r.l, d, &r.v)
	}
}

func (v *stateValues[S]) typ() ComponentType { return TypeOf[S]() }

func (v *stateValues[S]) appendWire(w *World, b []byte) []byte {
	l := w.layoutOf(v.typ())
	b = appendWireOf(l, b, &v.current)
	b = appendWireOf(l, b, &v.next)
	b = binio.AppendBool(b, v.pending)
	return binio.AppendU64(b, v.transitions)
}

func (v *stateValues[S]) decodeWire(w *World, d *wireDecoder) {
	l := w.layoutOf(v.typ())
	decodeWireOf(l, d, &v.current)
	decodeWireOf(l, d, &v.next)
	v.pending = d.Flag("States pending")
	v.transitions = d.U64()
}

// DecodeSnapshot reads a snapshot in the binary form of
// [Snapshot.AppendBinary] into s as a snapshot of a, reusing s's storage;
// [App.Restore] of s then gives a the world the sending App had, whose
// [App.Hash] equals the sender's, and ticks run on both with the same
// input keep them equal. a must be an App of the same game (the same
// component, resource and state types, made by the same set-up) and have
// met every component type the snapshot holds (a game's filters and
// maps, made at set-up, and its spawns at start-up meet them).
//
// It fails, leaving s empty, for input that is not a whole snapshot of
// this form and version, whose checksum does not match, that is of
// another game or build (naming the first type that differs), or that
// does not hold together (an entity the pool does not hold, a bool that
// is neither 0 nor 1, a component value on an entity of an archetype
// without it). It never panics on its input, and allocates at most a few
// times its length.
//
// Simulation goroutine, between ticks like [App.Restore].
func (a *App) DecodeSnapshot(s *Snapshot, b []byte) error {
	s.valid = false
	if err := a.EnableSnapshots(); err != nil {
		return err
	}
	// Decoding registers the snapshot's component types with Arche, which
	// an open query forbids.
	if err := a.snapshotMoment("DecodeSnapshot"); err != nil {
		return err
	}
	if s.app != a {
		*s = Snapshot{app: a}
	}
	body, err := checkHeader(b)
	if err != nil {
		return err
	}
	d := wireDecoder{Reader: binio.NewReader(body, ErrSnapshot)}
	a.decodeBody(s, &d)
	if d.Err() == nil && d.Left() != 0 {
		d.Failf("%d bytes follow the snapshot", d.Left())
	}
	if d.Err() != nil {
		return d.Err()
	}
	s.valid = true
	return nil
}

func checkHeader(b []byte) ([]byte, error) {
	if len(b) < snapshotHeader {
		return nil, fmt.Errorf("%w: %d bytes are not a snapshot (its header alone takes %d)", ErrSnapshot, len(b), snapshotHeader)
	}
	if string(b[:len(snapshotMagic)]) != snapshotMagic {
		return nil, fmt.Errorf("%w: not a snapshot (it starts %q, a snapshot %q)", ErrSnapshot, b[:len(snapshotMagic)], snapshotMagic)
	}
	h := b[len(snapshotMagic):]
	if v := le.Uint32(h); v != SnapshotVersion {
		return nil, fmt.Errorf("%w: snapshot of version %d; this build reads version %d", ErrSnapshot, v, SnapshotVersion)
	}
	n, sum := le.Uint64(h[4:]), le.Uint64(h[12:])
	body := b[snapshotHeader:]
	if n != uint64(len(body)) {
		return nil, fmt.Errorf("%w: snapshot's body is %d bytes and its header says %d (truncated or run together)", ErrSnapshot, len(body), n)
	}
	if got := crc64.Update(0, crcTable, body); got != sum {
		return nil, fmt.Errorf("%w: snapshot's checksum is %#016x and its body's %#016x (corrupt)", ErrSnapshot, sum, got)
	}
	return body, nil
}

// wireType is one entry of a decoded type table.
type wireType struct {
	role byte
	name string
	fp   uint64
	sent bool
}

func (a *App) decodeBody(s *Snapshot, d *wireDecoder) {
	w := a.world
	ws := &s.world

	// The type table, checked against a's types.
	n := d.count(1+4+8+1, "type table")
	types := make([]wireType, 0, n)
	for range n {
		if d.Err() != nil {
			return
		}
		t := wireType{role: d.Byte()}
		t.name = string(d.Bytes(int(d.U32())))
		t.fp = d.U64()
		t.sent = d.Flag("type table")
		if t.role < roleBuiltin || t.role > roleState {
			d.Failf("type %q has role %d, allowed %d..%d", t.name, t.role, roleBuiltin, roleState)
		}
		types = append(types, t)
	}
	if d.Err() != nil {
		return
	}
	// The built-in, resource and state types a has, in table order (as
	// appendBody writes them).
	w.fitRes(ws)
	a.fitStates(s)
	type roleType struct {
		role byte
		t    ComponentType
	}
	var want []roleType
	for _, t := range builtinTypes {
		want = append(want, roleType{roleBuiltin, t})
	}
	for _, r := range ws.res {
		if r != nil {
			want = append(want, roleType{roleResource, r.(wireValue).typ()})
		}
	}
	for _, st := range s.states {
		want = append(want, roleType{roleState, st.(wireValue).typ()})
	}
	var comps []wireType
	k := 0
	for _, t := range types {
		if t.role == roleComponent {
			comps = append(comps, t)
			continue
		}
		if k >= len(want) {
			d.Failf("the snapshot holds %s %s, which this App does not have (another game or build)", roleNames[t.role], t.name)
			return
		}
		if !a.sameType(d, t, want[k].role, want[k].t) {
			return
		}
		k++
	}
	if k < len(want) {
		d.Failf("this App has %s %v, which the snapshot does not hold (another game or build)", roleNames[want[k].role], want[k].t)
		return
	}
	// The component types, by name among a's, made for those a has met
	// only in filters and maps.
	for _, t := range comps {
		if mk, ok := w.known[t.name]; ok {
			mk(w)
			delete(w.known, t.name)
		}
	}
	byName := make(map[string]int, len(w.stores))
	for i, st := range w.stores {
		byName[st.typ().String()] = i
	}
	w.fitComps(ws)
	slot := make([]int, len(comps)) // wire component -> index in ws.comps
	seen := make([]bool, len(w.stores))
	for i, t := range comps {
		j, ok := byName[t.name]
		if !ok {
			d.Failf("the snapshot holds component type %s, which this App has not met: another game or build, or a type this App's set-up has not used yet (make a filter or map of it at set-up, ecs.NewFilter1 or ecs.NewMap)", t.name)
			return
		}
		if seen[j] {
			d.Failf("the snapshot holds component type %s twice", t.name)
			return
		}
		seen[j] = true
		if !a.sameType(d, t, roleComponent, w.stores[j].typ()) {
			return
		}
		slot[i] = j
	}

	// The entity pool.
	np := d.count(8, "entity pool")
	if d.Err() != nil {
		return
	}
	if np < 1 {
		d.Failf("the entity pool is empty; it holds at least the reserved zero entity")
		return
	}
	d.pool = ws.dump.Entities[:0]
	for range np {
		d.pool = append(d.pool, d.newEntity(d.U32(), d.U32()))
	}
	next, avail := d.U32(), d.U32()
	if d.Err() != nil {
		return
	}
	if d.pool[0].ID() != 0 || d.pool[0].Generation() != math.MaxUint32 {
		d.Failf("the entity pool's first entry is %d.%d, not the reserved zero entity", d.pool[0].ID(), d.pool[0].Generation())
		return
	}
	ws.dump = arche.EntityDump{Entities: d.pool, Next: next, Available: avail}

	// The live entities.
	ne := d.count(4, "live entities")
	d.runOf = make([]int32, np) // entity index -> run + 1, 0 when dead
	ws.ents = ws.ents[:0]
	for range ne {
		if d.Err() != nil {
			return
		}
		id := d.U32()
		if id == 0 || id >= np || d.pool[id].ID() != id {
			d.Failf("live entity %d is not a live entry of the pool of %d", id, np)
			return
		}
		if d.runOf[id] != 0 {
			d.Failf("entity %d is live twice", id)
			return
		}
		d.runOf[id] = -1
		ws.ents = append(ws.ents, d.pool[id])
	}
	// The free list: avail dead entries, each once.
	if uint64(ne)+uint64(avail) != uint64(np)-1 {
		d.Failf("the entity pool has %d entries, %d live and %d free (want one more entry, the zero entity)", np, ne, avail)
		return
	}
	free := next
	for range avail {
		if free == 0 || free >= np || d.runOf[free] != 0 {
			d.Failf("the entity pool's free list reaches index %d, not a free entry of the pool of %d", free, np)
			return
		}
		d.runOf[free] = -2
		free = d.pool[free].ID()
	}
	for i := range d.runOf {
		if d.runOf[i] == -2 {
			d.runOf[i] = 0
		}
	}

	// The archetypes.
	nr := d.count(6, "archetypes")
	ws.runs = ws.runs[:0]
	d.runTypes = d.runTypes[:0]
	var runStart []int
	at := 0
	ids := make([]arche.ID, 0, 8)
	for r := range nr {
		if d.Err() != nil {
			return
		}
		cnt := d.U32()
		nt := int(d.U16())
		if uint64(at)+uint64(cnt) > uint64(len(ws.ents)) {
			d.Failf("archetype %d holds %d entities past the %d live ones", r, cnt, len(ws.ents))
			return
		}
		if nt > arche.MaskTotalBits {
			d.Failf("archetype %d has %d component types, allowed up to %d", r, nt, arche.MaskTotalBits)
			return
		}
		runStart = append(runStart, len(d.runTypes))
		ids = ids[:0]
		for range nt {
			ci := int(d.U16())
			if d.Err() != nil {
				return
			}
			if ci >= len(comps) {
				d.Failf("archetype %d has component type %d of %d", r, ci, len(comps))
				return
			}
			id := ws.comps[slot[ci]].(wireComponent).archeID(w)
			for _, x := range ids {
				if x == id {
					d.Failf("archetype %d has component type %s twice", r, comps[ci].name)
					return
				}
			}
			ids = append(ids, id)
			d.runTypes = append(d.runTypes, int32(ci))
		}
		ws.runs = append(ws.runs, entityRun{mask: arche.All(ids...), n: int(cnt)})
		for _, e := range ws.ents[at : at+int(cnt)] {
			d.runOf[e.ID()] = int32(r + 1)
		}
		at += int(cnt)
	}
	if d.Err() != nil {
		return
	}
	if at != len(ws.ents) {
		d.Failf("the archetypes hold %d of the %d live entities", at, len(ws.ents))
		return
	}
	runStart = append(runStart, len(d.runTypes))

	// The component values: each type on exactly the entities whose
	// archetype has it.
	d.stamp = make([]int32, np)
	for i, c := range ws.comps {
		if !seen[i] {
			c.(wireComponent).empty()
		}
	}
	for ci, t := range comps {
		c := ws.comps[slot[ci]].(wireComponent)
		c.decodeWire(w, d, t.sent)
		if d.Err() != nil {
			return
		}
		want := 0
		for r := range ws.runs {
			if hasType(d.runTypes[runStart[r]:runStart[r+1]], ci) {
				want += ws.runs[r].n
			}
		}
		ents := c.wireEntities()
		if len(ents) != want {
			d.Failf("component type %s is on %d entities, and the archetypes give it %d", t.name, len(ents), want)
			return
		}
		for _, e := range ents {
			r := d.runOf[e.ID()] - 1
			if d.stamp[e.ID()] == int32(ci+1) || !hasType(d.runTypes[runStart[r]:runStart[r+1]], ci) {
				d.Failf("entity %d has a value of component type %s twice, or its archetype has not that type", e.ID(), t.name)
				return
			}
			d.stamp[e.ID()] = int32(ci + 1)
		}
	}

	// Resources and states.
	for _, r := range ws.res {
		if r != nil && d.Err() == nil {
			r.(wireValue).decodeWire(w, d)
		}
	}
	for _, st := range s.states {
		if d.Err() == nil {
			st.(wireValue).decodeWire(w, d)
		}
	}

	// The App's own state.
	s.ticks = d.U64()
	s.gameStart = time.Duration(d.U64())
	s.paused = d.Flag("paused")
	s.pauseReq = d.Flag("pause requested")
	s.epoch = d.U32()
	decodeWireOf(w.layoutOf(builtinTypes[0]), d, &s.time)
	decodeWireOf(w.layoutOf(builtinTypes[1]), d, &s.window)
	pcg := d.Bytes(int(d.U32()))
	if d.Err() != nil {
		return
	}
	if err := s.pcg.UnmarshalBinary(pcg); err != nil {
		d.Failf("random source: %v", err)
		return
	}
	nc := d.count(8, "cosmetic systems")
	if d.Err() == nil && int(nc) != len(a.entries) {
		d.Failf("the snapshot holds the skipped time of %d systems, and this App has %d (another game or build)", nc, len(a.entries))
		return
	}
	s.cosmetic = s.cosmetic[:0]
	for range nc {
		s.cosmetic = append(s.cosmetic, time.Duration(d.U64()))
	}
	if d.Err() != nil {
		return
	}
	get := func(b []byte, ev *Event) ([]byte, error) {
		d.Continue(b)
		var we wireEvent
		decodeWireOf(w.layoutOf(builtinTypes[2]), d, &we)
		*ev = Event{Kind: we.Kind, Entity: we.Entity, Value: we.Value}
		return d.Rest(), d.Err()
	}
	rest, err := s.queue.DecodeBinary(d.Rest(), a.queue.Cap(), get)
	if err != nil {
		d.Fail(fmt.Errorf("%w: gameplay queue: %w", ErrSnapshot, err))
		return
	}
	d.Continue(rest)
	if s.queue.Now() != s.ticks {
		d.Failf("the gameplay queue is at tick %d and the App at %d", s.queue.Now(), s.ticks)
		return
	}
	if rest, err = s.timers.DecodeBinary(d.Rest(), a.timers.Cap(), get); err != nil {
		d.Fail(fmt.Errorf("%w: timers: %w", ErrSnapshot, err))
		return
	}
	d.Continue(rest)

	// New versions, never used by a's world: a restore rebuilds it.
	w.versions++
	ws.structVer, ws.poolVer, ws.dumpVer, ws.dumped = w.versions, w.versions, w.versions, true
}

// sameType checks that entry t of a snapshot's type table is type want in
// role.
func (a *App) sameType(d *wireDecoder, t wireType, role byte, want ComponentType) bool {
	l := a.world.layoutOf(want)
	switch {
	case t.role != role || t.name != want.String():
		d.Failf("the snapshot holds %s %s where this App has %s %v (another game or build)", roleNames[t.role], t.name, roleNames[role], want)
	case t.fp != l.fingerprint:
		d.Failf("%s %s differs between the snapshot and this build (fingerprint %#016x, here %#016x): its fields or their types changed", roleNames[role], t.name, t.fp, l.fingerprint)
	case t.sent != (l.err == nil):
		d.Failf("%s %s is plain data in one build and not in the other", roleNames[role], t.name)
	case role != roleComponent && l.err != nil:
		d.Failf("%s %s cannot be sent: %v", roleNames[role], t.name, l.err)
	default:
		return true
	}
	return false
}

func hasType(ts []int32, ci int) bool {
	for _, t := range ts {
		if int(t) == ci {
			return true
		}
	}
	return false
}

// wireDecoder reads a snapshot's body. The first failure is kept in err,
// after which every read returns zero.
type wireDecoder struct {
	binio.Reader
	// pool is the decoded entity pool; runOf maps an entity index to its
	// archetype (plus one), 0 for one that is not live; stamp is scratch.
	pool     []arche.Entity
	runOf    []int32
	runTypes []int32
	stamp    []int32
	json     []byte // scratch of makeEntity in builds tagged archesafe
}

// count reads a count of items of at least each bytes, failing when what
// is left could not hold them: so nothing sized by a count allocates more
// than the input's length allows.
func (d *wireDecoder) count(each int, what string) uint32 {
	return uint32(d.Count32(what, math.MaxInt32, each))
}

// live returns the live entity of index id.
func (d *wireDecoder) live(id uint32, what string) arche.Entity {
	if d.Err() != nil {
		return arche.Entity{}
	}
	if int(id) >= len(d.runOf) || d.runOf[id] <= 0 {
		d.Failf("a %s value is on entity %d, which is not live", what, id)
		return arche.Entity{}
	}
	return d.pool[id]
}

// entity returns the Entity of index id and generation gen inside a
// value (field names it): the zero Entity, or one of an index the pool
// holds, live or not (a component may keep an entity that died).
func (d *wireDecoder) entity(id, gen uint32, field string) arche.Entity {
	if d.Err() != nil || id == 0 && gen == 0 {
		return arche.Entity{}
	}
	if int(id) >= len(d.pool) || id == 0 {
		d.Failf("%s is entity %d.%d, outside the pool of %d", field, id, gen, len(d.pool))
		return arche.Entity{}
	}
	if e := d.pool[id]; e.ID() == id && e.Generation() == gen {
		return e
	}
	return d.newEntity(id, gen)
}

// newEntity makes the Arche entity of index id and generation gen, for
// the pool's entries and the entities values keep that are no longer
// live. Arche makes one from its parts only through its JSON form;
// makeEntity (pooldump.go) writes the two fields in place instead, which
// keeps encoding/json out of every program that decodes a snapshot.
func (d *wireDecoder) newEntity(id, gen uint32) arche.Entity {
	if d.Err() != nil {
		return arche.Entity{}
	}
	e, err := makeEntity(&d.json, id, gen)
	if err != nil {
		d.Failf("entity %d.%d: %v", id, gen, err)
	}
	return e
}

// Load decodes the snapshot in b ([App.DecodeSnapshot]) into the slot of
// tick, which then holds it (dropping the tick n earlier, as Save does),
// and returns its failure, holding nothing for tick. It does not restore
// the App: call Restore(tick) for that.
func (r *Snapshots) Load(tick uint64, b []byte) error {
	i := r.slot(tick)
	r.held[i] = false
	if err := r.app.DecodeSnapshot(&r.slots[i], b); err != nil {
		return err
	}
	r.ticks[i], r.held[i] = tick, true
	return nil
}
