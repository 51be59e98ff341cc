package audio

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/timing"
)

// Options configure a [Mixer]. Zero is a meaningful value for Latency and
// Tolerance, so start from [DefaultOptions].
type Options struct {
	// Rate is the output sample rate, [MinRate, MaxRate]. Default 48000.
	Rate int
	// Latency is the fixed output latency added to every placed start,
	// [0, 2s]. It must cover how far ahead of the device the mixer renders
	// plus how late requests reach it (at most one update after its span
	// starts, more during a catch-up burst), or sounds come out late.
	// Default 80 ms.
	Latency time.Duration
	// Tolerance is how far in the past a start may lie and still play (at
	// once); later sounds are dropped unless essential. [0, 10s]. Default
	// 100 ms.
	Tolerance time.Duration
	// MaxVoices is the voice limit for sounds, [1, 1024]. Default 64.
	MaxVoices int
	// MaxStreams is how many streams may play at once, [0, 64]. Default 4.
	MaxStreams int
	// QueueSize is the capacity of the command queue, [16, 65536], rounded
	// up to a power of two. Default 1024.
	QueueSize int
	// StreamBuffer is how much decoded audio each stream keeps ready,
	// [20ms, 10s]. Default 500 ms.
	StreamBuffer time.Duration
	// Volumes are the buses' volumes at start, indexed by [Bus] (Master
	// included), each a linear gain in [0, MaxVolume]. Default 1 each. A
	// game's settings set them here; [Player.SetBusVolume] changes them
	// while it runs.
	Volumes [NumBuses]float32
}

// DefaultOptions returns the documented default of every field.
func DefaultOptions() Options {
	return Options{
		Rate:         48000,
		Latency:      80 * time.Millisecond,
		Tolerance:    100 * time.Millisecond,
		MaxVoices:    64,
		MaxStreams:   4,
		QueueSize:    1024,
		StreamBuffer: 500 * time.Millisecond,
		Volumes:      [NumBuses]float32{1, 1, 1, 1},
	}
}

// Validate reports every field outside its range, all at once. Each
// problem is an *[option.Error] (package "audio", wrapping [media.ErrInvalid]),
// so a configuration loader can name its own key for the field and repeat
// the allowed range stated here.
func (o Options) Validate() error {
	var errs []error
	bad := func(field string, value any, allowed string) {
		errs = append(errs, &option.Error{Pkg: "audio", Field: field, Value: value, Problem: "is out of range", Allowed: allowed, Err: media.ErrInvalid})
	}
	if o.Rate < MinRate || o.Rate > MaxRate {
		bad("Options.Rate", o.Rate, fmt.Sprintf("%d to %d", MinRate, MaxRate))
	}
	if o.Latency < 0 || o.Latency > 2*time.Second {
		bad("Options.Latency", o.Latency, "0s to 2s")
	}
	if o.Tolerance < 0 || o.Tolerance > 10*time.Second {
		bad("Options.Tolerance", o.Tolerance, "0s to 10s")
	}
	if o.MaxVoices < 1 || o.MaxVoices > 1024 {
		bad("Options.MaxVoices", o.MaxVoices, "1 to 1024")
	}
	if o.MaxStreams < 0 || o.MaxStreams > 64 {
		bad("Options.MaxStreams", o.MaxStreams, "0 to 64")
	}
	if o.QueueSize < 16 || o.QueueSize > 1<<16 {
		bad("Options.QueueSize", o.QueueSize, "16 to 65536")
	}
	if o.StreamBuffer < 20*time.Millisecond || o.StreamBuffer > 10*time.Second {
		bad("Options.StreamBuffer", o.StreamBuffer, "20ms to 10s")
	}
	for b, v := range o.Volumes {
		if !(v >= 0 && v <= MaxVolume) {
			bad(volumeField(Bus(b)), v, fmt.Sprintf("0 to %d", MaxVolume))
		}
	}
	return errors.Join(errs...)
}

// volumeField is the option.Error Field that names bus b's start volume:
// "Options.Volumes[Music]", as a Go user writes it.
func volumeField(b Bus) string {
	names := [NumBuses]string{"Effects", "Music", "UI", "Master"}
	if b >= NumBuses {
		return "Options.Volumes[?]"
	}
	return "Options.Volumes[" + names[b] + "]"
}

// blockFrames is the mixing block: voices and buses are mixed in blocks of
// at most this many frames, so scratch buffers have a fixed size whatever
// length the device asks for.
const blockFrames = 256

// stealFade is how long a stolen voice takes to fade out, in one of
// tailSlots spare slots, so stealing does not click. With every spare slot
// fading, a stolen voice is cut at once.
const (
	stealFade = 2 * time.Millisecond
	tailSlots = 8
)

// muteRamp is the ramp of a mute or unmute, short enough to feel instant
// and long enough not to click.
const muteRamp = 5 * time.Millisecond

// Mixer mixes sounds and streams into interleaved stereo float32 frames on
// a device timeline (see [Timeline]).
//
// Threads: exactly one goroutine, the device's, calls [Mixer.Start],
// [Mixer.Render] and [Mixer.Skip]; it takes no lock and never waits for
// the simulation, which talks to it only through the [Player]'s lock-free
// queue. One other goroutine may call [Mixer.Pump] to decode streams.
// [Mixer.Stats], [Mixer.Player] and [Mixer.Options] are safe from any
// goroutine.
type Mixer struct {
	opts   Options
	rate   int
	queue  *cmdQueue
	player Player
	nextID atomic.Uint64
	stats  stats
	wake   chan struct{}

	// Stream registry: the Player adds, the pump goroutine fills and
	// removes. Render never touches it.
	streamsMu sync.Mutex
	streams   []*Stream
	pumpList  []*Stream // pump goroutine only

	// Everything below belongs to the device goroutine.
	started      bool
	tl           Timeline
	pos          int64
	tolFrames    int64
	rampFrames   int64
	voices       []voice
	active       []int32 // indices of busy voices
	free         []int32 // free sound-voice slots
	freeStreams  []int32 // free stream-voice slots
	freeTails    []int32 // free slots for stolen voices fading out
	tailStart    int32
	stealFrames  int64
	buses        [NumBuses]ramp
	muted        [NumBuses]bool
	volume       [NumBuses]float32
	busBuf       [Master][2 * blockFrames]float32
	busUsed      [Master]bool
	soundVoices  int
	streamVoices int
}

// NewMixer validates o and makes a mixer with every bus at its volume in
// o.Volumes.
func NewMixer(o Options) (*Mixer, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	m := &Mixer{
		opts:        o,
		rate:        o.Rate,
		queue:       newCmdQueue(o.QueueSize),
		wake:        make(chan struct{}, 1),
		voices:      make([]voice, o.MaxVoices+o.MaxStreams+tailSlots),
		active:      make([]int32, 0, o.MaxVoices+o.MaxStreams+tailSlots),
		tailStart:   int32(o.MaxVoices + o.MaxStreams),
		stealFrames: max(1, DurationFrames(stealFade, o.Rate)),
		tolFrames:   DurationFrames(o.Tolerance, o.Rate),
		rampFrames:  max(1, DurationFrames(muteRamp, o.Rate)),
	}
	m.player.m = m
	for i := o.MaxVoices - 1; i >= 0; i-- {
		m.free = append(m.free, int32(i))
	}
	for i := o.MaxVoices + o.MaxStreams - 1; i >= o.MaxVoices; i-- {
		m.freeStreams = append(m.freeStreams, int32(i))
	}
	for i := m.tailStart + tailSlots - 1; i >= m.tailStart; i-- {
		m.freeTails = append(m.freeTails, i)
	}
	for b := range m.buses {
		m.buses[b].set(o.Volumes[b])
		m.volume[b] = o.Volumes[b]
	}
	m.tl = Timeline{Rate: o.Rate, Latency: DurationFrames(o.Latency, o.Rate)}
	return m, nil
}

// Options returns the options the mixer was made with.
func (m *Mixer) Options() Options { return m.opts }

// Player returns the mixer's simulation-side handle (always the same one).
func (m *Mixer) Player() *Player { return &m.player }

// Stats returns a snapshot of the counters.
func (m *Mixer) Stats() Stats { return m.stats.snapshot() }

// Start fixes the device timeline: origin is the instant matched to frame
// 0, the first frame Render will produce. The device layer calls it once,
// when the device asks for its first buffer, before any Render. Requests
// made before Start wait in the queue and are placed when Render first
// runs. Calling Start twice panics.
func (m *Mixer) Start(origin timing.Instant) {
	if m.started {
		panic("audio: Mixer.Start called twice")
	}
	m.started = true
	m.tl.Origin = origin
}

// Timeline returns the mapping from instants to frames; valid after
// Start. Device goroutine only.
func (m *Mixer) Timeline() Timeline { return m.tl }

// Position returns the next frame Render will produce. Device goroutine
// only.
func (m *Mixer) Position() int64 { return m.pos }

// Skip moves the timeline forward by frames without rendering them: the
// device layer calls it when the device played silence the mixer never
// produced (an underrun), so frames rendered afterwards land where the
// timeline says. Voices resume where they were; starts that fall inside
// the gap are judged late like any other. Counted in Stats.Underruns.
func (m *Mixer) Skip(frames int64) {
	if frames <= 0 {
		return
	}
	m.pos += frames
	m.stats.underruns.Add(1)
	m.stats.skipped.Add(uint64(frames))
	m.stats.frames.Store(m.pos)
}

// ShiftOrigin moves the timeline's origin by d (later when positive):
// the device layer calls it when it learns that the device's clock and the
// timeline disagree without any audio being lost, for instance when the
// device began consuming later than it asked for its first buffer, or
// drifts from the monotonic clock. Frames already scheduled keep their
// places. Counted in Stats.Realigns and Stats.Realigned. Device goroutine
// only.
func (m *Mixer) ShiftOrigin(d time.Duration) {
	if d == 0 {
		return
	}
	m.tl.Origin = m.tl.Origin.AddSaturating(d)
	m.stats.realigns.Add(1)
	m.stats.realigned.Add(int64(d))
}

// PumpWake returns a channel that receives a value when a stream's buffer
// runs below half, so a pump goroutine can wait on it (with a timer as a
// backstop) between calls to [Mixer.Pump].
func (m *Mixer) PumpWake() <-chan struct{} { return m.wake }

// Render mixes the next len(dst)/2 stereo frames into dst, overwriting it,
// after taking every pending request off the queue. It allocates nothing
// and never blocks. It panics before Start or if len(dst) is odd.
func (m *Mixer) Render(dst []float32) {
	if !m.started {
		panic("audio: Mixer.Render before Start")
	}
	if len(dst)%2 != 0 {
		panic("audio: Mixer.Render: odd buffer length")
	}
	m.drain()
	wake := false
	for len(dst) > 0 {
		n := min(len(dst)/2, blockFrames)
		if m.renderBlock(dst[:2*n], n) {
			wake = true
		}
		dst = dst[2*n:]
		m.pos += int64(n)
	}
	if wake {
		select {
		case m.wake <- struct{}{}:
		default:
		}
	}
	m.stats.voices.Store(int64(m.soundVoices))
	m.stats.streams.Store(int64(m.streamVoices))
	m.stats.frames.Store(m.pos)
	m.stats.buffers.Add(1)
}

func (m *Mixer) drain() {
	var c command
	for m.queue.pop(&c) {
		switch c.kind {
		case cmdPlay:
			m.play(&c)
		case cmdStop:
			if v := m.find(c.id); v != nil {
				at := max(m.tl.Place(c.at), m.pos)
				if at <= v.start {
					m.release(v) // stopped before it started
				} else if at < v.stopAt {
					v.stopAt = at
					v.stopFade = DurationFrames(c.fade, m.rate)
				}
			}
		case cmdVolume:
			if v := m.find(c.id); v != nil && !v.stopping {
				v.env.to(c.value, DurationFrames(c.fade, m.rate))
			}
		case cmdPan:
			if v := m.find(c.id); v != nil {
				v.setPan(c.value)
			}
		case cmdSpeed:
			if v := m.find(c.id); v != nil && v.sound != nil {
				v.step = stepFor(v.sound.rate, m.rate, c.value)
			}
		case cmdBusVolume:
			m.volume[c.bus] = c.value
			if !m.muted[c.bus] {
				m.buses[c.bus].to(c.value, DurationFrames(c.fade, m.rate))
			}
		case cmdBusMute:
			m.muted[c.bus] = c.flag
			target := m.volume[c.bus]
			if c.flag {
				target = 0
			}
			m.buses[c.bus].to(target, m.rampFrames)
		}
		c = command{}
	}
}

// play places a start on the timeline and finds it a voice.
func (m *Mixer) play(c *command) {
	start := m.tl.Place(c.at)
	late := false
	if start < m.pos {
		lateBy := m.pos - start
		if lateBy > m.tolFrames && !c.params.Essential {
			m.stats.dropped.Add(1)
			return
		}
		late = true
		d := int64(m.tl.InstantOf(lateBy) - m.tl.InstantOf(0))
		if d > m.stats.worstLate.Load() {
			m.stats.worstLate.Store(d)
		}
		start = m.pos
	}
	var slot int32 = -1
	if c.stream != nil {
		if n := len(m.freeStreams); n > 0 {
			slot = m.freeStreams[n-1]
			m.freeStreams = m.freeStreams[:n-1]
			m.streamVoices++
		}
	} else if n := len(m.free); n > 0 {
		slot = m.free[n-1]
		m.free = m.free[:n-1]
		m.soundVoices++
	} else if victim := m.victim(c.params.Priority); victim != nil {
		m.stats.stolen.Add(1)
		slot = victim.slot
		if n := len(m.freeTails); n > 0 && victim.start < m.pos {
			// Let the stolen voice fade out in a spare slot.
			t := m.freeTails[n-1]
			m.freeTails = m.freeTails[:n-1]
			tail := &m.voices[t]
			*tail = *victim
			tail.slot, tail.id = t, 0
			tail.stopAt, tail.stopFade, tail.stopping = m.pos, m.stealFrames, false
			m.active = append(m.active, t)
		}
		m.unlink(victim)
	}
	if slot < 0 {
		m.stats.refused.Add(1)
		return
	}
	if late {
		m.stats.late.Add(1)
	} else {
		m.stats.placed.Add(1)
	}
	v := &m.voices[slot]
	v.init(slot, c, start, m.rate)
	m.active = append(m.active, slot)
	if int64(m.soundVoices) > m.stats.peak.Load() {
		m.stats.peak.Store(int64(m.soundVoices))
	}
}

// victim applies the stealing policy: among busy sound voices whose
// priority is at most p, the lowest priority; among equals a one-shot
// before a loop; among those the one that started first. Nil when every
// busy voice outranks p.
func (m *Mixer) victim(p int8) *voice {
	var best *voice
	for _, i := range m.active {
		v := &m.voices[i]
		if v.stream != nil || v.slot >= m.tailStart || v.priority > p {
			continue
		}
		if best == nil || v.priority < best.priority ||
			(v.priority == best.priority && (!v.loop && best.loop ||
				v.loop == best.loop && v.start < best.start)) {
			best = v
		}
	}
	return best
}

func (m *Mixer) find(id uint64) *voice {
	if id == 0 {
		return nil
	}
	for _, i := range m.active {
		if v := &m.voices[i]; v.id == id {
			return v
		}
	}
	return nil
}

// unlink removes v from the active list and clears it, keeping its slot
// for the caller (stealing).
func (m *Mixer) unlink(v *voice) {
	for k, i := range m.active {
		if i == v.slot {
			last := len(m.active) - 1
			m.active[k] = m.active[last]
			m.active = m.active[:last]
			break
		}
	}
	slot := v.slot
	*v = voice{slot: slot}
}

// release ends v and frees its slot.
func (m *Mixer) release(v *voice) {
	slot, stream := v.slot, v.stream
	m.unlink(v)
	if slot >= m.tailStart {
		m.freeTails = append(m.freeTails, slot)
	} else if stream != nil {
		stream.finished.Store(true)
		m.freeStreams = append(m.freeStreams, slot)
		m.streamVoices--
	} else {
		m.free = append(m.free, slot)
		m.soundVoices--
	}
}

// renderBlock mixes n frames into out and reports whether a stream wants
// its buffer refilled.
func (m *Mixer) renderBlock(out []float32, n int) bool {
	for b := range m.busUsed {
		m.busUsed[b] = false
	}
	b0 := m.pos
	wake := false
	for k := 0; k < len(m.active); {
		v := &m.voices[m.active[k]]
		if v.start >= b0+int64(n) {
			k++
			continue
		}
		buf := m.busBuf[v.bus][:2*n]
		if !m.busUsed[v.bus] {
			clear(buf)
			m.busUsed[v.bus] = true
		}
		done, starved, low := v.render(buf, b0, n)
		if starved > 0 {
			m.stats.starved.Add(uint64(starved))
		}
		wake = wake || low
		if done {
			if v.stream != nil && v.stream.failed() {
				m.stats.streamErrs.Add(1)
			}
			m.release(v) // swaps another voice into position k
			continue
		}
		k++
	}
	clear(out)
	for b := range m.busUsed {
		bus := &m.buses[b]
		if !m.busUsed[b] {
			bus.finish(int64(n))
			continue
		}
		buf := m.busBuf[b][:2*n]
		if !bus.ramping() && bus.value == 1 {
			for i, s := range buf {
				out[i] += s
			}
			continue
		}
		bus.apply(out, buf)
	}
	if master := &m.buses[Master]; master.ramping() || master.value != 1 {
		master.apply(out, out)
	}
	for i, s := range out {
		out[i] = min(1, max(-1, s))
	}
	return wake
}

// ramp is a gain moving linearly to a target over a number of frames.
type ramp struct {
	value, target, step float32
	left                int64
}

func (r *ramp) set(v float32) { *r = ramp{value: v, target: v} }

func (r *ramp) to(target float32, frames int64) {
	if frames <= 0 {
		r.set(target)
		return
	}
	r.target, r.left = target, frames
	r.step = (target - r.value) / float32(frames)
}

func (r *ramp) ramping() bool { return r.left > 0 }

// apply sets dst[i] += src[i] × gain for stereo frames (or scales dst in
// place when src is dst), the gain following the ramp frame by frame, and
// advances the ramp past them. A ramp that ends inside the run ends on its
// exact frame.
func (r *ramp) apply(dst, src []float32) {
	inPlace := &dst[0] == &src[0]
	for len(src) > 0 {
		n := len(src) / 2
		g, dg := r.value, float32(0)
		if r.left > 0 {
			n = int(min(int64(n), r.left))
			dg = r.step
		}
		d, s := dst[:2*n], src[:2*n]
		if inPlace {
			for i := 0; i < len(d); i += 2 {
				d[i] *= g
				d[i+1] *= g
				g += dg
			}
		} else {
			for i := 0; i < len(d); i += 2 {
				d[i] += s[i] * g
				d[i+1] += s[i+1] * g
				g += dg
			}
		}
		r.finish(int64(n))
		dst, src = dst[2*n:], src[2*n:]
	}
}

func (r *ramp) finish(n int64) {
	if r.left <= 0 {
		return
	}
	if n >= r.left {
		r.set(r.target)
		return
	}
	r.left -= n
	r.value += r.step * float32(n)
}
