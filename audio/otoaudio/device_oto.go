//go:build !linux || cgo

package otoaudio

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ebitengine/oto/v3"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/timing"
)

// oto supports one context per process, for the life of the process. It
// is made on the first Open and suspended, not destroyed, by Close.
var (
	ctxMu   sync.Mutex
	ctx     *oto.Context
	ctxRate int
	ctxErr  error
	inUse   bool
)

// Device plays a [audio.Mixer] through oto.
//
// Threads: Open and Close are called by the application's owner of audio
// (a runtime or framework), once each; Stats from any goroutine. oto's
// own goroutine calls the mixer's Render through the device; the device
// owns one goroutine more, the stream pump, which Close stops and waits
// for.
type Device struct {
	m      *audio.Mixer
	opts   Options
	ctx    *oto.Context
	player *oto.Player
	src    source

	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// Open starts playing m on the default output device. It waits until the
// device is ready (so the first buffer's instant really is when output
// begins), at most 2 s, and returns an error wrapping ErrNoDevice when
// there is none or it does not become ready in time.
// The mixer must not have been started: the device starts it, with the
// instant of the first buffer as the timeline's origin.
func Open(m *audio.Mixer, o Options) (*Device, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	rate := m.Options().Rate
	c, err := context(rate, o.DeviceBuffer)
	if err != nil {
		return nil, err
	}
	d := &Device{m: m, opts: o, ctx: c, stop: make(chan struct{})}
	d.src.init(m, o)
	d.player = c.NewPlayer(&d.src)
	d.src.player.Store(d.player)
	d.player.SetBufferSize(int(audio.DurationFrames(o.PlayerBuffer, rate)) * 8)
	d.wg.Add(1)
	go d.pump()
	d.player.Play()
	return d, nil
}

func context(rate int, buffer time.Duration) (*oto.Context, error) {
	ctxMu.Lock()
	defer ctxMu.Unlock()
	if inUse {
		return nil, noDeviceBecause("a device is already open in this process (oto allows one)")
	}
	if ctx == nil && ctxErr == nil {
		silenceLibrary()
		// A sound server that accepts the connection and then never
		// answers (a frozen PulseAudio) keeps oto waiting for ever. The
		// wait is bounded; after it the process's output is given up
		// (a later Open reports the same), and the goroutine stays
		// blocked in the system's call, which nothing can interrupt.
		type made struct {
			c   *oto.Context
			err error
		}
		res := make(chan made, 1)
		go func() {
			c, ready, err := oto.NewContext(&oto.NewContextOptions{
				SampleRate:   rate,
				ChannelCount: 2,
				Format:       oto.FormatFloat32LE,
				BufferSize:   buffer,
			})
			if err == nil {
				awaitReady(ready)
				err = c.Err()
			}
			res <- made{c, err}
		}()
		select {
		case m := <-res:
			if m.err != nil {
				ctxErr = noDevice(m.err)
			} else {
				ctx, ctxRate = m.c, rate
			}
		case <-time.After(openBound):
			ctxErr = noDeviceBecause("the output device did not become ready within %v (a sound server that does not answer?)", openBound)
		}
	}
	if ctxErr != nil {
		return nil, ctxErr
	}
	if rate != ctxRate {
		return nil, noDeviceBecause("the process's output runs at %d Hz, not %d (oto keeps its first rate)", ctxRate, rate)
	}
	if err := ctx.Resume(); err != nil {
		return nil, noDevice(err)
	}
	inUse = true
	return ctx, nil
}

// pump keeps the mixer's streams decoded ahead.
func (d *Device) pump() {
	defer d.wg.Done()
	t := time.NewTicker(d.opts.PumpInterval)
	defer t.Stop()
	for {
		d.m.Pump()
		select {
		case <-d.stop:
			return
		case <-d.m.PumpWake():
		case <-t.C:
		}
	}
}

// Close stops output and the pump and waits for the pump to return. The
// mixer is left as it was; a mixer cannot be played again (its timeline
// has started), but another Open with a new mixer can follow.
func (d *Device) Close() error {
	var err error
	d.once.Do(func() {
		d.src.mu.Lock()
		d.src.closed = true // oto may read a little after Pause: give it EOF
		d.src.mu.Unlock()
		d.player.Pause()
		err = d.player.Err()
		close(d.stop)
		d.wg.Wait()
		ctxMu.Lock()
		defer ctxMu.Unlock()
		inUse = false
		// oto's Suspend waits for the lock its writer holds while the
		// system's write call blocks; a device that stopped consuming
		// (a sound server gone or wedged) would block it, and with it the
		// game's exit, for ever. Close waits a bounded time; after that
		// the process's output is given up and a later Open reports it.
		done := make(chan error, 1)
		c := d.ctx
		go func() { done <- c.Suspend() }()
		select {
		case e := <-done:
			if e != nil && err == nil {
				err = e
			}
		case <-time.After(closeBound):
			gone := noDeviceBecause("the output device stopped taking audio (a write blocked for over %v at Close)", closeBound)
			ctxErr, ctx = gone, nil
			if err == nil {
				err = fmt.Errorf("otoaudio: Close: %s", gone.Reason)
			}
		}
	})
	return err
}

// openBound is how long Open waits for the output to become ready. A
// working device is ready in tens of milliseconds.
var openBound = 2 * time.Second

// closeBound is how long Close waits for the system to take oto's last
// write. A working device takes a period (tens of milliseconds).
var closeBound = 2 * time.Second

// Err returns the backend's error, if output failed after Open.
func (d *Device) Err() error {
	if err := d.player.Err(); err != nil {
		return err
	}
	return d.ctx.Err()
}

// Stats returns the device's counters.
func (d *Device) Stats() Stats {
	s := &d.src
	rate := int64(d.m.Options().Rate)
	fr := func(f int64) time.Duration { return time.Duration(f * int64(time.Second) / rate) }
	st := Stats{
		Reads:     s.reads.Load(),
		Lead:      fr(s.lead.Load()),
		Queued:    fr(s.queued.Load()),
		Underruns: s.underruns.Load(),
	}
	if st.Reads > 0 {
		st.MinLead, st.MaxLead = fr(s.minLeadA.Load()), fr(s.maxLeadA.Load())
	}
	return st
}

// source is the io.Reader oto pulls from, on oto's goroutine.
type source struct {
	m      *audio.Mixer
	clock  timing.Clock
	player atomic.Pointer[oto.Player]
	rate   int64
	chunk  int
	f32    []float32
	warm   time.Duration // how long after the first read lags are alignment
	margin int64         // frames behind the clock that are jitter, not a gap
	window time.Duration // how long the lead's minimum is taken over for drift
	drift  int64         // frames the lead's minimum may move before a realign

	mu        sync.Mutex // oto's goroutines only; the simulation never takes it
	started   bool
	closed    bool
	warmUntil timing.Instant

	// Drift: the lead saws between reads, so its minimum over a window is
	// what is compared; base is the first window's after warm-up.
	winEnd         timing.Instant
	driftAfter     timing.Instant
	winMin, base   int64
	winOK, baseSet bool

	reads              atomic.Uint64
	lead, queued       atomic.Int64
	minLeadA, maxLeadA atomic.Int64
	underruns          atomic.Uint64
}

// init sizes the reader for m's rate and o's buffers: lags during the
// first warm period (both buffers filling, the device starting) move the
// origin; later a lag of more than a device period and a chunk is a gap.
func (s *source) init(m *audio.Mixer, o Options) {
	rate := m.Options().Rate
	s.m, s.clock, s.rate = m, o.Clock, int64(rate)
	s.chunk = int(max(1, audio.DurationFrames(o.Chunk, rate)))
	s.warm = 2*(o.DeviceBuffer+o.PlayerBuffer) + 100*time.Millisecond
	s.margin = audio.DurationFrames(o.DeviceBuffer/2+o.Chunk, rate)
	s.window = time.Second
	s.drift = audio.DurationFrames(2*time.Millisecond, rate)
	s.f32 = make([]float32, 2*s.chunk)
}

func (s *source) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, io.EOF
	}
	frames := min(len(p)/8, s.chunk)
	if frames == 0 {
		return 0, nil
	}
	now := s.clock.Now()
	if !s.started {
		s.started = true
		s.m.Start(now)
		s.warmUntil = now.AddSaturating(s.warm)
	}
	// The mixer renders ahead of the clock. When the clock has passed what
	// it rendered, either the device began consuming later than it asked
	// for the first buffer (early on: the origin moves, nothing was lost)
	// or it played silence the mixer never made, an underrun: the
	// timeline moves on so what follows lands in place. Lags within the
	// margin are the device's own jitter (it takes a period at a time).
	due := s.m.Timeline().FrameOf(now)
	if lag := due - s.m.Position(); lag > 0 {
		switch {
		case now < s.warmUntil:
			s.m.ShiftOrigin(time.Duration((lag*int64(time.Second) + s.rate - 1) / s.rate))
			due = s.m.Timeline().FrameOf(now)
		case lag > s.margin:
			s.m.Skip(lag)
			s.underruns.Add(1)
			// A window with a gap says nothing of drift, nor does the
			// refill of the buffers after it.
			s.winOK = false
			s.driftAfter = now.AddSaturating(s.warm)
		}
	}
	buf := s.f32[:2*frames]
	s.m.Render(buf)
	for i, v := range buf {
		binary.LittleEndian.PutUint32(p[4*i:], math.Float32bits(v))
	}
	lead := s.m.Position() - due
	if now >= s.warmUntil && now >= s.driftAfter {
		s.trackDrift(now, lead)
	}
	s.lead.Store(lead)
	if pl := s.player.Load(); pl != nil {
		s.queued.Store(int64(pl.BufferedSize() / 8))
	}
	if s.reads.Add(1) == 1 || lead < s.minLeadA.Load() {
		s.minLeadA.Store(lead)
	}
	if lead > s.maxLeadA.Load() {
		s.maxLeadA.Store(lead)
	}
	return 8 * frames, nil
}

// trackDrift keeps the timeline on the device's clock. The device takes
// frames at its own rate, which differs from the monotonic clock's by up
// to a few hundred parts per million: a device running fast takes more
// frames than the clock says are due, so the lead over the clock grows
// (6 ms a minute at 100 ppm) and sounds would come out ever earlier than
// their instants, until they are judged late; a slow one shrinks it
// until it reads as a gap. The lead's minimum over each window is held
// within drift frames of the first window's by moving the origin.
func (s *source) trackDrift(now timing.Instant, lead int64) {
	if !s.winOK {
		s.winOK, s.winMin, s.winEnd = true, lead, now.AddSaturating(s.window)
		return
	}
	s.winMin = min(s.winMin, lead)
	if now < s.winEnd {
		return
	}
	switch off := s.winMin - s.base; {
	case !s.baseSet:
		s.base, s.baseSet = s.winMin, true
	case off > s.drift || off < -s.drift:
		// Lead grown by off frames: the origin moves earlier by as much,
		// so the frame the clock says is due is the one being taken.
		s.m.ShiftOrigin(-time.Duration(off * int64(time.Second) / s.rate))
	}
	s.winOK = false
}
