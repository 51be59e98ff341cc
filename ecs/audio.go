package ecs

import (
	"errors"
	"math"
	"time"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/timing"
)

// Audio is the world resource that connects an App to an audio mixer
// ([audio.Player]): [AddAudio] stores it and adds the system that runs the
// [SoundSource] components. Systems play sounds with [Sys.Play] and
// [Sys.PlaySound].
//
// # Timing
//
// Every request is placed on the span of the tick that made it
// ([audio.InUpdate] of [Time]): a sound played by tick n starts at the
// point of the device's output matching the start of tick n's span, plus
// the mixer's fixed latency, however late the tick actually ran. So the
// four ticks of a catch-up burst, run back to back, place their sounds a
// step apart. Quiet ticks (the first ticks of a RepayDebt burst) trigger
// sounds like any other: a sound whose start is already past by more than
// the mixer's tolerance is dropped (unless [audio.Params].Essential), and
// the mixer counts each outcome ([audio.Stats] Placed, Late, Dropped).
// A [System.Cosmetic] system skips quiet ticks, so the sounds it triggers
// are those of the burst's last tick only: trigger footsteps and shots from
// ordinary systems to hear every one.
//
// # Replays
//
// Sound requests come from the simulation and nothing of this resource is
// game state (voices are kept outside the world, and the resource is not
// hashed), so a replay that gets the recorded ticks makes the same requests
// on the same spans and, on a mixer with the same timeline, the same
// samples. A headless replay runs with a nil Player, silently.
type Audio struct {
	// Player is the mixer's simulation side. A nil Player is silent: every
	// request succeeds and plays nothing (audio disabled, no device, a
	// headless replay).
	Player *audio.Player
	// Sounds resolves the [assets.Sound] handles of [SoundSource]
	// components and [Sys.PlaySound]; nil uses the App's
	// [Options.Assets].
	Sounds *assets.Library
	// Listener is the entity that hears: positional sources are panned and
	// faded by their [Transform]'s position relative to the listener's. A
	// zero or dead Listener (or one without a Transform) hears from the
	// centre of the first enabled [Camera]'s view (following its
	// [Camera.Follow] target), and without a camera from the centre of the
	// framebuffer, where the default pass puts world units on pixels.
	Listener Entity
	// PanWidth is the horizontal distance from the listener, in world
	// units, at which a positional source is fully to one side. Zero means
	// half the width the listener's camera shows (half the framebuffer
	// without a camera).
	PanWidth float32
	// StopFade is how long a source's voice fades out when its component
	// is removed or its entity despawned. [AddAudio] sets 10 ms.
	StopFade time.Duration
	// Shift moves every request's instants by this much. It is zero in a
	// live session. A replay played with a device at recorded speed sets
	// it to (this session's clock - the recording's) at its first tick, so
	// that the recorded spans land on this session's device timeline.
	Shift time.Duration

	app     *App
	stats   AudioStats
	replay  playLog // rollback: the requests of recent ticks (audio_rollback.go)
	sources []sourceVoice
	slots   []int32 // by entity ID: index in sources + 1, 0 for none
	seen    uint32

	filter     *generic.Filter1[SoundSource]
	sourceMap  generic.Map[SoundSource]
	cameras    *generic.Filter2[Transform, Camera]
	transforms generic.Map[Transform]
}

// DefaultStopFade is the fade-out [AddAudio] gives [Audio.StopFade].
const DefaultStopFade = 10 * time.Millisecond

// AudioStats counts what the audio resource did. The mixer's own counters
// (placed, late, dropped, underruns) are in [audio.Stats].
type AudioStats struct {
	// Sources is the number of SoundSource components with a voice after
	// the last tick.
	Sources int
	// Started and Stopped count the voices of SoundSource components.
	Started, Stopped uint64
	// Played counts Sys.Play and Sys.PlaySound requests.
	Played uint64
	// Matched counts requests of ticks run again after a rollback that
	// were matched to the voice the first run started, and Unmade the
	// voices of rolled-back ticks that the ticks run again did not make,
	// stopped with RollbackFade (see [Audio.BeginRollback]).
	Matched, Unmade uint64
	// Errors counts requests that failed (a stale handle, parameters out
	// of range, a full queue); LastError is the latest.
	Errors    uint64
	LastError error
}

// SoundSource plays a sound from its entity. The voice starts when the
// component appears (spawned with it or added), on the span of the tick in
// which the audio system first sees it, and stops, with [Audio.StopFade],
// when the component is removed or the entity despawned. A positional
// source is panned every tick by its entity's [Transform] relative to the
// listener (see [Audio.Listener]).
//
// A looping source is always essential ([audio.Params].Essential): if its
// tick's span is already past the mixer's tolerance when it starts (a slow
// first frame, a catch-up burst), it starts at once rather than never.
//
// Changing Sound restarts the voice; changing Params.Volume or
// Params.Speed changes the playing voice; the other Params take effect at
// the start. A source that is not looping plays once and stays silent
// until its Sound changes or the component is added again.
//
// The component is plain data (a handle, not a *audio.Sound), so the world
// hash covers it; the voice itself is not game state.
type SoundSource struct {
	Sound  assets.Sound
	Params audio.Params
	// Positional pans the voice by the entity's horizontal distance from
	// the listener, added to Params.Pan (the entity needs a Transform;
	// without one it plays as it is).
	Positional bool
	// Range, when positive, also fades a positional voice with distance:
	// Params.Volume at the listener, silent at Range world units or more.
	Range float32
}

// LoopingSource returns a positional source looping s at full volume on
// the effects bus.
func LoopingSource(s assets.Sound) SoundSource {
	p := audio.DefaultParams()
	p.Loop = true
	return SoundSource{Sound: s, Params: p, Positional: true}
}

// sourceVoice is the voice of one SoundSource, kept outside the world.
type sourceVoice struct {
	e                  arche.Entity
	voice              audio.Voice
	sound              assets.Sound
	pan, volume, speed float32 // as last sent
	seen               uint32
	// pending: during a rollback, the source wants a voice of another
	// sound than sound (or a first one); [Audio.EndRollback] starts it.
	pending bool
}

// AddAudio stores a new [Audio] resource playing through player (nil for a
// silent game) and adds its systems: "ecs.audio" at the end of the
// [PostUpdate] stage as it stands (it starts, pans and stops the voices of
// [SoundSource] components), and one in [Shutdown] that stops them all.
// Call it before adding systems that add or remove sources in PostUpdate:
// a source such a system adds after "ecs.audio" starts one tick later, on
// the next tick's span. Sources added in PreUpdate or Update start on
// their own tick's span. An app has one Audio: when it has one already
// (the framework adds it before the game's Setup), AddAudio returns that
// one and adds nothing, whatever player is given.
func AddAudio(app *App, player *audio.Player) *Audio {
	w := app.world
	if a := GetResource[Audio](w); a != nil {
		return a
	}
	a := &Audio{
		Player:     player,
		StopFade:   DefaultStopFade,
		app:        app,
		filter:     generic.NewFilter1[SoundSource](),
		cameras:    generic.NewFilter2[Transform, Camera](),
		transforms: generic.NewMap[Transform](&w.w),
	}
	a.sourceMap = generic.NewMap[SoundSource](&w.w) // registers the type while the world is unlocked
	AddResource(w, a)
	app.AddSystem(PostUpdate, System{Name: "ecs.audio", Run: a.sync})
	app.AddSystem(Shutdown, System{Name: "ecs.audio", Run: a.stopAll})
	return a
}

// Stats returns the resource's counters.
func (a *Audio) Stats() AudioStats { return a.stats }

// At returns where a request of the tick u belongs on the timeline:
// [audio.InUpdate] moved by [Audio.Shift].
func (a *Audio) At(u timing.Update) audio.At {
	at := audio.InUpdate(u)
	if a.Shift != 0 {
		at.Start = at.Start.AddSaturating(a.Shift)
		at.End = at.End.AddSaturating(a.Shift)
	}
	return at
}

func (a *Audio) library() *assets.Library {
	if a.Sounds != nil {
		return a.Sounds
	}
	if a.app != nil {
		return a.app.extract.lib
	}
	return nil
}

var errNoLibrarySound = errors.New("ecs: a sound handle needs an assets.Library: set Audio.Sounds or Options.Assets")

func (a *Audio) resolve(h assets.Sound) (*audio.Sound, error) {
	lib := a.library()
	if lib == nil {
		return nil, errNoLibrarySound
	}
	return lib.AudioSound(h)
}

func (a *Audio) fail(err error) {
	a.stats.Errors++
	a.stats.LastError = err
}

// Play plays s with p, placed on the span of the current tick (see
// [Audio]). Without an [Audio] resource, or with a nil Player, it plays
// nothing and reports no error. It allocates nothing.
func (c *Sys) Play(s *audio.Sound, p audio.Params) (audio.Voice, error) {
	a := GetResource[Audio](c.World)
	if a == nil {
		return audio.Voice{}, nil
	}
	a.stats.Played++
	tick := c.Time.Number
	if v, ok := a.replay.match(tick, s); ok {
		a.stats.Matched++
		return v, nil
	}
	v, err := a.Player.Play(s, a.At(c.Time.Update), p)
	if err != nil {
		a.fail(err)
		return v, err
	}
	a.replay.record(tick, s, v)
	return v, nil
}

// PlaySound is [Sys.Play] for a sound of the [assets.Library]; a stale
// handle is an error (wrapping [assets.ErrStale]) even when the player is
// silent, so a headless test catches it.
func (c *Sys) PlaySound(h assets.Sound, p audio.Params) (audio.Voice, error) {
	a := GetResource[Audio](c.World)
	if a == nil {
		return audio.Voice{}, nil
	}
	s, err := a.resolve(h)
	if err != nil {
		a.stats.Played++
		a.fail(err)
		return audio.Voice{}, err
	}
	return c.Play(s, p)
}

// listener returns the point positional sources are heard from and the
// half-width that pans a source fully to one side (0 when unknown).
func (a *Audio) listener(ctx *Sys) (x, y, half float32) {
	win := ctx.Window
	fbW, fbH := float32(win.Framebuffer.Width), float32(win.Framebuffer.Height)
	x, y, half = fbW/2, fbH/2, fbW/2
	w := &a.app.world.w
	found := false
	if e := a.Listener.e; !e.IsZero() && w.Alive(e) && a.transforms.Has(e) {
		t := a.transforms.Get(e)
		x, y, found = t.Position.X, t.Position.Y, true
	}
	q := a.cameras.Query(w)
	for q.Next() {
		t, c := q.Get()
		if c.Disabled {
			continue
		}
		zoom := c.Zoom
		if zoom == 0 {
			zoom = 1
		}
		vw, vh := fbW, fbH
		if c.Viewport.W > 0 && c.Viewport.H > 0 {
			vw, vh = c.Viewport.W, c.Viewport.H
		}
		half = vw / 2 / zoom
		if !found {
			px, py := t.Position.X, t.Position.Y
			if f := c.Follow.e; !f.IsZero() && w.Alive(f) && a.transforms.Has(f) {
				ft := a.transforms.Get(f)
				px, py = px+ft.Position.X, py+ft.Position.Y
			}
			// The camera's position shows at Anchor; the view's centre is
			// (0.5 - Anchor) of the view away from it.
			x = px + (0.5-c.Anchor.X)*vw/zoom
			y = py + (0.5-c.Anchor.Y)*vh/zoom
		}
		q.Close()
		break
	}
	if a.PanWidth > 0 {
		half = a.PanWidth
	}
	return x, y, half
}

// place returns the pan and volume of source s on entity e.
func (a *Audio) place(e arche.Entity, s *SoundSource, lx, ly, half float32) (pan, volume float32) {
	pan, volume = s.Params.Pan, s.Params.Volume
	if !s.Positional || !a.transforms.Has(e) {
		return pan, volume
	}
	t := a.transforms.Get(e)
	dx, dy := t.Position.X-lx, t.Position.Y-ly
	if half > 0 {
		pan = min(1, max(-1, pan+dx/half))
	}
	if s.Range > 0 {
		d := float32(math.Sqrt(float64(float32(dx*dx) + float32(dy*dy))))
		volume *= max(0, 1-d/s.Range)
	}
	return pan, volume
}

// panStep is the least change of pan or volume worth a command: finer
// steps are inaudible and would only fill the mixer's queue.
const panStep = 1.0 / 512

// sync starts, updates and stops the voices of SoundSource components.
func (a *Audio) sync(ctx *Sys) {
	if a.Player == nil {
		// Silent: nothing to start, pan or stop. Sources start on the
		// first tick with a player.
		a.forget()
		return
	}
	a.seen++
	if a.seen == 0 {
		a.seen = 1
	}
	at := a.At(ctx.Time.Update)
	// While a rollback runs ticks again, voices are neither started nor
	// stopped: EndRollback settles them on the state the last tick left,
	// so a loop both runs play keeps its voice, and one only the first
	// run stopped or started is started or stopped once.
	rolling := a.replay.rollback
	lx, ly, half := a.listener(ctx)
	q := a.filter.Query(&a.app.world.w)
	for q.Next() {
		s, e := q.Get(), q.Entity()
		pan, volume := a.place(e, s, lx, ly, half)
		i, ok := a.lookup(e)
		if !ok {
			a.sources = append(a.sources, sourceVoice{e: e})
			i = int32(len(a.sources) - 1)
			a.slots[e.ID()] = i + 1
		}
		r := &a.sources[i]
		r.seen = a.seen
		if rolling {
			r.pending = !ok || r.sound != s.Sound
			if r.pending {
				r.pan, r.volume = pan, volume
				continue
			}
		} else if !ok || r.sound != s.Sound {
			a.stop(r, at) // nothing for a new source
			r.sound = s.Sound
			a.start(r, s, at, pan, volume)
			continue
		}
		if r.voice.IsZero() {
			continue
		}
		if abs32(pan-r.pan) >= panStep || (pan != r.pan && (pan == 0 || abs32(pan) == 1)) {
			if err := a.Player.SetPan(r.voice, pan); err != nil {
				a.fail(err)
			}
			r.pan = pan
		}
		if abs32(volume-r.volume) >= panStep || (volume != r.volume && volume == 0) {
			if err := a.Player.SetVolume(r.voice, volume, ctx.Time.Delta); err != nil {
				a.fail(err)
			}
			r.volume = volume
		}
		if s.Params.Speed != r.speed {
			if err := a.Player.SetSpeed(r.voice, s.Params.Speed); err != nil {
				a.fail(err)
			}
			r.speed = s.Params.Speed
		}
	}
	if !rolling {
		a.sweep(at, a.StopFade)
	}
	a.countSources()
}

// sweep stops, with fade, the voices of the sources the last tick did not
// see (removed or despawned), and forgets them.
func (a *Audio) sweep(at audio.At, fade time.Duration) {
	for i := 0; i < len(a.sources); {
		r := &a.sources[i]
		if r.seen == a.seen {
			i++
			continue
		}
		a.stopWith(r, at, fade)
		// The slot may already hold a newer entity with the same ID.
		if id := r.e.ID(); a.slots[id] == int32(i)+1 {
			a.slots[id] = 0
		}
		last := len(a.sources) - 1
		if i != last {
			moved := a.sources[last]
			a.sources[i] = moved
			if id := moved.e.ID(); a.slots[id] == int32(last)+1 {
				a.slots[id] = int32(i) + 1
			}
		}
		a.sources = a.sources[:last]
	}
}

func (a *Audio) countSources() {
	a.stats.Sources = 0
	for i := range a.sources {
		if !a.sources[i].voice.IsZero() {
			a.stats.Sources++
		}
	}
}

// settleSources ends a rollback for the sources' voices: the sources the
// last tick run did not see stop, fading over fade, and those that want
// another voice than the one playing (or none played) start, at at.
func (a *Audio) settleSources(at audio.At, fade time.Duration) {
	if a.Player == nil {
		return
	}
	w := &a.app.world.w
	for i := range a.sources {
		r := &a.sources[i]
		if !r.pending || r.seen != a.seen {
			continue
		}
		r.pending = false
		if !w.Alive(r.e) || !a.sourceMap.Has(r.e) {
			r.seen-- // removed after the audio system saw it: the sweep stops it
			continue
		}
		s := a.sourceMap.Get(r.e)
		a.stopWith(r, at, fade)
		r.sound = s.Sound
		a.start(r, s, at, r.pan, r.volume)
	}
	a.sweep(at, fade)
	a.countSources()
}

func (a *Audio) start(r *sourceVoice, s *SoundSource, at audio.At, pan, volume float32) {
	r.voice = audio.Voice{}
	r.pan, r.volume, r.speed = pan, volume, s.Params.Speed
	snd, err := a.resolve(s.Sound)
	if err != nil {
		a.fail(err)
		return
	}
	p := s.Params
	p.Pan, p.Volume = pan, volume
	// A loop has no moment to miss: started late it still plays (the
	// mixer begins it at once), where a late one-shot would be dropped.
	p.Essential = p.Essential || p.Loop
	v, err := a.Player.Play(snd, at, p)
	if err != nil {
		a.fail(err)
		return
	}
	if !v.IsZero() { // a silent player starts nothing
		r.voice = v
		a.stats.Started++
	}
}

func (a *Audio) stop(r *sourceVoice, at audio.At) { a.stopWith(r, at, a.StopFade) }

func (a *Audio) stopWith(r *sourceVoice, at audio.At, fade time.Duration) {
	if r.voice.IsZero() {
		return
	}
	if err := a.Player.Stop(r.voice, at, fade); err != nil {
		a.fail(err)
	}
	r.voice = audio.Voice{}
	a.stats.Stopped++
}

// stopAll stops every source's voice when the simulation ends.
func (a *Audio) stopAll(ctx *Sys) {
	at := a.At(ctx.Time.Update).AtEnd()
	for i := range a.sources {
		a.stop(&a.sources[i], at)
	}
	a.forget()
}

// forget drops every record (their voices already stopped or never
// started).
func (a *Audio) forget() {
	for i := range a.sources {
		a.slots[a.sources[i].e.ID()] = 0
	}
	a.sources = a.sources[:0]
	a.stats.Sources = 0
}

// lookup returns the record of e, growing the ID table to hold e. A
// record of an earlier entity with e's recycled ID is not e's: that
// entity is gone, and the sweep stops its voice.
func (a *Audio) lookup(e arche.Entity) (int32, bool) {
	id := int(e.ID())
	if id >= len(a.slots) {
		a.slots = append(a.slots, make([]int32, max(id+1, 2*len(a.slots), 256)-len(a.slots))...)
	}
	i := a.slots[id] - 1
	if i < 0 || a.sources[i].e != e {
		return 0, false
	}
	return i, true
}
