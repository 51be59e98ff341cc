package audio

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/timing"
)

// Bus is a mixing group with its own volume and mute. Every voice plays on
// one of Effects, Music or UI; Master scales them all.
type Bus uint8

const (
	// Effects is the zero Bus: gameplay sounds.
	Effects Bus = iota
	Music
	UI
	// Master is applied after the three others; no voice plays on it.
	Master
	// NumBuses is the number of buses, for tables indexed by Bus.
	NumBuses = 4
)

func (b Bus) String() string {
	switch b {
	case Effects:
		return "effects"
	case Music:
		return "music"
	case UI:
		return "ui"
	case Master:
		return "master"
	}
	return "Bus(?)"
}

// MaxVolume is the largest linear gain of a voice or bus (+12 dB).
const MaxVolume = 4

// Speed range: 1 plays at the sound's own pitch, 2 an octave up in half
// the time. Resampling is linear interpolation.
const (
	MinSpeed = 1.0 / 16
	MaxSpeed = 8
)

// At says when a sound is meant to start, in the simulation's terms: the
// real-time span [Start, End) of the update that asked for it, and an
// Offset from Start. The zero Offset is the natural anchor: a sound
// requested by an update starts at the point of the device timeline that
// matches the start of that update's span, plus the mixer's fixed latency.
// So the updates of a catch-up burst, run back to back, still place their
// sounds a step apart. An event computed to happen part-way through the
// step (a collision at 40% of it) sets Offset to that part of the span.
type At struct {
	Start, End timing.Instant
	Offset     time.Duration
}

// InUpdate anchors a request at the start of u's span.
func InUpdate(u timing.Update) At { return At{Start: u.Start, End: u.End} }

// AtInstant anchors a request at one instant, for requests that come from
// no update (a menu on the platform thread): Start = End = t.
func AtInstant(t timing.Instant) At { return At{Start: t, End: t} }

// Later returns a moved by d more (d may be negative).
func (a At) Later(d time.Duration) At { a.Offset += d; return a }

// AtEnd returns a anchored at the end of its span instead of the start.
func (a At) AtEnd() At { a.Offset = time.Duration(a.End - a.Start); return a }

// Instant returns Start + Offset, saturating.
func (a At) Instant() timing.Instant { return a.Start.AddSaturating(a.Offset) }

// Params are the per-voice settings of a play request. The zero Params is
// silent (Volume 0) and has no valid Speed: start from [DefaultParams].
type Params struct {
	// Bus is the voice's mixing group: Effects, Music or UI.
	Bus Bus
	// Volume is a linear gain in [0, MaxVolume]; 1 plays the file as it is.
	Volume float32
	// Pan places the voice in [-1, 1]: -1 left, 0 centre, 1 right. It is a
	// balance: the centre plays both channels at full gain, and moving
	// right lowers the left channel linearly (and the other way).
	Pan float32
	// Speed is the playback rate in [MinSpeed, MaxSpeed], changing pitch
	// too. Streams play at 1 only.
	Speed float32
	// Loop repeats the sound (or the stream) from its start until stopped.
	Loop bool
	// Essential sounds play at once when their start is already past by
	// more than the mixer's tolerance, instead of being dropped.
	Essential bool
	// Priority orders voices for stealing when all are busy: a new voice
	// takes the slot of the lowest-priority voice, and is refused when
	// every busy voice ranks above it.
	Priority int8
	// FadeIn ramps the volume up from 0 over this long; zero starts at full
	// volume.
	FadeIn time.Duration
}

// DefaultParams returns full volume, centre pan, normal speed, on the
// Effects bus, not looping, not essential, priority 0.
func DefaultParams() Params { return Params{Volume: 1, Speed: 1} }

func (p Params) validate(stream bool) error {
	var errs []error
	if p.Bus >= Master {
		errs = append(errs, media.Detail(media.ErrInvalid, "Params.Bus %v: a voice plays on effects, music or ui", p.Bus))
	}
	if !(p.Volume >= 0 && p.Volume <= MaxVolume) {
		errs = append(errs, media.Detail(media.ErrInvalid, "Params.Volume %g outside [0, %d]", p.Volume, MaxVolume))
	}
	if !(p.Pan >= -1 && p.Pan <= 1) {
		errs = append(errs, media.Detail(media.ErrInvalid, "Params.Pan %g outside [-1, 1]", p.Pan))
	}
	if stream {
		if p.Speed != 1 {
			errs = append(errs, media.Detail(media.ErrInvalid, "Params.Speed %g: streams play at speed 1 only", p.Speed))
		}
	} else if !(p.Speed >= MinSpeed && p.Speed <= MaxSpeed) {
		errs = append(errs, media.Detail(media.ErrInvalid, "Params.Speed %g outside [%g, %d]", p.Speed, MinSpeed, MaxSpeed))
	}
	if p.FadeIn < 0 {
		errs = append(errs, media.Detail(media.ErrInvalid, "Params.FadeIn %v is negative", p.FadeIn))
	}
	return errors.Join(errs...)
}

// Voice names one playing (or scheduled) sound, for later changes. The
// zero Voice names nothing. A Voice whose sound has ended, was stopped,
// stolen or dropped is stale, and changes sent to it are ignored.
type Voice struct{ id uint64 }

// IsZero reports whether v is the zero Voice.
func (v Voice) IsZero() bool { return v.id == 0 }

// Player is the simulation's side of a [Mixer]: it turns requests into
// commands on the mixer's queue and never waits for the mixer. All its
// methods are safe from any goroutine; requests from one goroutine reach
// the mixer in the order they were made. A request the full queue cannot
// take fails with [ErrQueueFull] and is counted in [Stats].QueueFull.
//
// A nil *Player is a silent player, for a game running without audio
// (disabled, or no device): every method does nothing and returns no
// error, and OpenStream returns a nil *Stream, which is safe to play and
// close.
type Player struct {
	m *Mixer
	// tap, when set, sees every request (Player.Tapped); ids numbers the
	// voices of a tapped player without a mixer.
	tap func(Request)
	ids atomic.Uint64
}

func (p *Player) send(c *command) error {
	if p.tap != nil {
		p.tap(Request{Kind: RequestKind(c.kind), Voice: Voice{c.id}, Sound: c.sound, Stream: c.stream, At: c.at,
			Params: c.params, Fade: c.fade, Value: c.value, Bus: c.bus, Muted: c.flag})
	}
	if p.m == nil {
		return nil
	}
	if !p.m.queue.push(c) {
		p.m.stats.queueFull.Add(1)
		return ErrQueueFull
	}
	return nil
}

// Play schedules s to start at the frame of the device timeline matching
// at (see [At] and [Timeline]) and returns its Voice. A start already in
// the past when the mixer sees the request plays at once if it is at most
// the mixer's tolerance late or the request is Essential, and is dropped
// otherwise; [Stats] counts each outcome.
func (p *Player) Play(s *Sound, at At, params Params) (Voice, error) {
	if p == nil {
		return Voice{}, nil
	}
	if s == nil {
		return Voice{}, media.Detail(media.ErrInvalid, "audio: Play: nil sound")
	}
	if err := params.validate(false); err != nil {
		return Voice{}, err
	}
	id := p.nextID()
	if err := p.send(&command{kind: cmdPlay, id: id, sound: s, at: at.Instant(), params: params}); err != nil {
		return Voice{}, err
	}
	return Voice{id}, nil
}

// PlayStream schedules a stream opened with [Player.OpenStream], like
// Play. A stream plays once: a second PlayStream of the same stream fails
// with media.ErrInvalid.
func (p *Player) PlayStream(st *Stream, at At, params Params) (Voice, error) {
	if p == nil {
		return Voice{}, nil
	}
	if p.m == nil && st == nil {
		return Voice{}, nil // a tapped silent player's stream is nil too
	}
	if st == nil || st.m != p.m {
		return Voice{}, media.Detail(media.ErrInvalid, "audio: PlayStream: stream is nil or from another mixer")
	}
	if err := params.validate(true); err != nil {
		return Voice{}, err
	}
	if !st.played.CompareAndSwap(false, true) {
		return Voice{}, media.Detail(media.ErrInvalid, "audio: PlayStream %s: the stream was already played", st.name)
	}
	st.loop.Store(params.Loop)
	st.armed.Store(true)
	id := p.nextID()
	if err := p.send(&command{kind: cmdPlay, id: id, stream: st, at: at.Instant(), params: params}); err != nil {
		st.played.Store(false)
		return Voice{}, err
	}
	return Voice{id}, nil
}

// Stop ends v at the frame matching at, fading out over fade (zero cuts
// at once). A voice that has not started by then never starts.
func (p *Player) Stop(v Voice, at At, fade time.Duration) error {
	if p == nil {
		return nil
	}
	if fade < 0 {
		return media.Detail(media.ErrInvalid, "audio: Stop: fade %v is negative", fade)
	}
	return p.send(&command{kind: cmdStop, id: v.id, at: at.Instant(), fade: fade})
}

// SetVolume ramps v's volume to volume ([0, MaxVolume]) over fade,
// starting when the mixer takes the request.
func (p *Player) SetVolume(v Voice, volume float32, fade time.Duration) error {
	if p == nil {
		return nil
	}
	if !(volume >= 0 && volume <= MaxVolume) || fade < 0 {
		return media.Detail(media.ErrInvalid, "audio: SetVolume: volume %g outside [0, %d] or fade %v negative", volume, MaxVolume, fade)
	}
	return p.send(&command{kind: cmdVolume, id: v.id, value: volume, fade: fade})
}

// SetPan moves v to pan in [-1, 1].
func (p *Player) SetPan(v Voice, pan float32) error {
	if p == nil {
		return nil
	}
	if !(pan >= -1 && pan <= 1) {
		return media.Detail(media.ErrInvalid, "audio: SetPan: pan %g outside [-1, 1]", pan)
	}
	return p.send(&command{kind: cmdPan, id: v.id, value: pan})
}

// SetSpeed changes the playback rate of a sound voice ([MinSpeed,
// MaxSpeed]); stream voices ignore it.
func (p *Player) SetSpeed(v Voice, speed float32) error {
	if p == nil {
		return nil
	}
	if !(speed >= MinSpeed && speed <= MaxSpeed) {
		return media.Detail(media.ErrInvalid, "audio: SetSpeed: speed %g outside [%g, %d]", speed, MinSpeed, MaxSpeed)
	}
	return p.send(&command{kind: cmdSpeed, id: v.id, value: speed})
}

// SetBusVolume ramps bus b (Master included) to volume ([0, MaxVolume])
// over fade.
func (p *Player) SetBusVolume(b Bus, volume float32, fade time.Duration) error {
	if p == nil {
		return nil
	}
	if b >= NumBuses || !(volume >= 0 && volume <= MaxVolume) || fade < 0 {
		return media.Detail(media.ErrInvalid, "audio: SetBusVolume: bus %v, volume %g outside [0, %d] or fade %v negative", b, volume, MaxVolume, fade)
	}
	return p.send(&command{kind: cmdBusVolume, bus: b, value: volume, fade: fade})
}

// SetBusMute mutes or unmutes bus b, with a short ramp so it never clicks.
func (p *Player) SetBusMute(b Bus, muted bool) error {
	if p == nil {
		return nil
	}
	if b >= NumBuses {
		return media.Detail(media.ErrInvalid, "audio: SetBusMute: bus %v does not exist", b)
	}
	return p.send(&command{kind: cmdBusMute, bus: b, flag: muted})
}

// Rate returns the mixer's output rate, for code that converts times (0
// for a nil Player).
func (p *Player) Rate() int {
	if p == nil || p.m == nil {
		return 0
	}
	return p.m.rate
}

func (p *Player) nextID() uint64 {
	if p.m == nil {
		return p.ids.Add(1)
	}
	return p.m.nextID.Add(1)
}

// RequestKind is what a [Request] asks of the mixer.
type RequestKind uint8

// The kinds of request, one for each Player method that sends one.
const (
	RequestPlay RequestKind = RequestKind(cmdPlay) + iota
	RequestStop
	RequestVolume
	RequestPan
	RequestSpeed
	RequestBusVolume
	RequestBusMute
)

var requestNames = [...]string{RequestPlay: "play", RequestStop: "stop", RequestVolume: "volume",
	RequestPan: "pan", RequestSpeed: "speed", RequestBusVolume: "bus volume", RequestBusMute: "bus mute"}

func (k RequestKind) String() string {
	if int(k) < len(requestNames) && requestNames[k] != "" {
		return requestNames[k]
	}
	return fmt.Sprintf("RequestKind(%d)", uint8(k))
}

// Request is one request a [Player] sends its mixer, as a tap sees it
// ([Player.Tapped]). The fields a kind does not use are zero.
type Request struct {
	Kind  RequestKind
	Voice Voice
	// Sound or Stream is what a play request plays.
	Sound  *Sound
	Stream *Stream
	// At is the instant a play or stop request is placed at.
	At     timing.Instant
	Params Params
	Fade   time.Duration
	// Value is the volume, pan or speed asked for.
	Value float32
	Bus   Bus
	Muted bool
}

// ID returns a number naming the voice, unique among the voices of one
// mixer (or one tapped silent player); 0 for the zero Voice.
func (v Voice) ID() uint64 { return v.id }

// Tapped returns a Player that sends p's mixer the requests p would and
// hands each request, after checking it, to tap, on the goroutine that
// made it. A nil p gives a silent player that still hands its requests
// to tap, numbering its voices itself. The time-travel debugger taps a
// replay's silent player so its timeline shows the sounds each tick
// started; a game's own player stays untapped and pays nothing for it.
// tap must not keep the Request's Sound or Stream past the mixer's life.
func (p *Player) Tapped(tap func(Request)) *Player {
	t := &Player{tap: tap}
	if p != nil {
		t.m = p.m
	}
	return t
}
