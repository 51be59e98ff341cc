package inspect

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A live game is inspected through its recording: the game records into
// a [Live] in memory (its recording writer's own goroutine hands chunks
// over, so the game's tick only encodes, as it does for --record), and a
// follower goroutine replays that recording as it grows, keeping
// keyframes on its own time. The page reads the follower's world, never
// the game's: a slow request holds the follower up, not the tick.
//
// The follower is lazy: with no page open it does not replay at all (on
// two cores shared with other work, its CPU was the game's), and the
// recording waits in memory. A page's request wakes it; it catches up
// from where it stopped, at replay speed, and follows while requests
// keep coming. After the game ends it reads to the end whatever the page
// does: the game needs the CPU no more.

// DefaultLiveIdle is how long after the page's latest request a zero
// [LiveOptions.Idle] lets the follower go on replaying: the page polls
// the live session every second or so while it is open.
const DefaultLiveIdle = 5 * time.Second

// LiveOptions configure a [Live]. A zero LiveOptions holds the defaults.
type LiveOptions struct {
	// Idle is how long the follower replays after the page's latest
	// request before it stops: 0 is DefaultLiveIdle; 1 ms to 1 hour.
	Idle time.Duration
	// Clock times the requests: nil is the real clock
	// (timing.SystemClock), a test's timing.ManualClock makes idleness
	// exact.
	Clock timing.Clock
}

func (o LiveOptions) validate() error {
	if o.Idle != 0 && (o.Idle < time.Millisecond || o.Idle > time.Hour) {
		return fmt.Errorf("inspect: LiveOptions.Idle is %v: want 0 (%v) or 1ms to 1h", o.Idle, DefaultLiveIdle)
	}
	return nil
}

// neverAsked is Live.asked before the first request.
const neverAsked = math.MinInt64

// liveBufferCap is the memory recording's first capacity: minutes of a
// game's recording before it grows (appending there is the recording
// writer's goroutine's work, never the tick's).
const liveBufferCap = 1 << 20

// Live is a game's session inspected while it plays: an io.Writer its
// recording goes to (framework.RunOptions.RecordTo), the follower that
// replays it as it grows (framework.InspectLive), and the [Replay] the
// follower fills, which [ListenLive] and [NewLiveHandler] serve.
//
// The follower replays only while a page asks ([LiveOptions.Idle]) or
// once the recording is closed. A page's request runs on the follower's
// goroutine, between two of its ticks or while it waits for more of the
// recording or for a page, and finds the world where it left it; the
// follower then puts the world back at the live end before its next
// tick. So whatever the page asks costs the follower's time (a
// background worker's, in framework.InspectLive), never the game's.
type Live struct {
	run sync.Mutex // the follower's while it replays, a request's while it runs
	rep *Replay    // under run; nil before the first tick
	end error      // under run: why the follower stopped
	fin bool       // under run: the follower stopped

	mu     sync.Mutex // guards data, closed, stats and samples
	data   []byte
	closed bool
	// The game's counters (Watch) and what they said at each Write.
	stats   func() runtime.Stats
	samples []presentSample
	more    chan struct{} // a Write, Close or request happened

	clock timing.Clock
	idle  time.Duration
	asked atomic.Int64 // the Instant of the page's latest request; neverAsked

	// A request's work runs on the follower's goroutine between its
	// ticks (calls), so that the page's seeks and answers take the
	// follower's low-priority time, not the game's; before the follower
	// began and after it stopped, on the request's own, under run.
	calls     chan *liveCall
	following atomic.Bool
	stopped   chan struct{} // closed by Stop

	// A match's net figures, read from its recording as it grows, as
	// far as it is written, when a request asks (figures): under run.
	figs    *recording.Reader
	figRead figureReader
	figErr  error
}

// liveCall is a request's work handed to the follower.
type liveCall struct {
	fn   func()
	done chan struct{}
	p    any // fn's panic, raised again on the request's goroutine
}

// run runs c's work on the follower: a panic in it is the request's (as
// net/http recovers a handler's), not the follower's.
func (c *liveCall) run() {
	defer func() {
		c.p = recover()
		close(c.done)
	}()
	c.fn()
}

// NewLive returns a Live with nothing recorded yet and the default
// [LiveOptions].
func NewLive() *Live {
	l, _ := NewLiveOptions(LiveOptions{}) // the defaults are valid
	return l
}

// NewLiveOptions returns a Live with nothing recorded yet, or an error
// naming the option out of range.
func NewLiveOptions(opts LiveOptions) (*Live, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	l := &Live{data: make([]byte, 0, liveBufferCap), more: make(chan struct{}, 1), clock: opts.Clock, idle: opts.Idle,
		calls: make(chan *liveCall), stopped: make(chan struct{})}
	if l.clock == nil {
		l.clock = timing.SystemClock{}
	}
	if l.idle == 0 {
		l.idle = DefaultLiveIdle
	}
	l.asked.Store(neverAsked)
	return l, nil
}

// ask is a page's request: the follower replays for the next Idle. The
// request's goroutine calls it; it touches nothing of the game's.
func (l *Live) ask() {
	l.asked.Store(int64(l.clock.Now()))
	l.wake()
}

// idleNow says no page has asked for Idle.
func (l *Live) idleNow() bool {
	a := l.asked.Load()
	return a == neverAsked || time.Duration(int64(l.clock.Now())-a) >= l.idle
}

// Write keeps p, the next bytes of the session's recording. Any one
// goroutine may call it (the recording writer's).
func (l *Live) Write(p []byte) (int, error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return 0, errors.New("inspect: write to a Live whose session ended")
	}
	l.data = append(l.data, p...)
	l.sample()
	l.mu.Unlock()
	if !l.idleNow() { // an idle follower waits for a page, not for data
		l.wake()
	}
	return len(p), nil
}

// Close says the session's recording is complete: the follower reads to
// its end and stops. Call it once the recording is closed.
func (l *Live) Close() error {
	l.mu.Lock()
	l.sample()
	l.closed = true
	l.mu.Unlock()
	l.wake()
	return nil
}

// maxPresentSamples bounds the samples of the game's presents: a day of
// half-second chunks.
const maxPresentSamples = 2 * 86400

// presentSample is the game's updates and presented frames at a moment.
type presentSample struct{ updates, presented uint64 }

// Watch has the Live note the game's presents: stats (a
// runtime.GameRuntime's Stats, which framework.RunOptions.Started hands
// over) is read each time the recording hands a chunk over, half a second
// of game time, on the recording writer's goroutine, and [Live.Presents]
// gives the frames presented over the ticks between two readings. Call it
// before the game's first tick, from any goroutine.
func (l *Live) Watch(stats func() runtime.Stats) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stats = stats
	if l.samples == nil {
		l.samples = make([]presentSample, 0, 1024) // ten minutes before it grows
	}
}

// sample notes the game's counters, under mu.
func (l *Live) sample() {
	if l.stats == nil || l.closed || len(l.samples) >= maxPresentSamples {
		return
	}
	s := l.stats()
	if n := len(l.samples); n > 0 && l.samples[n-1].updates == s.Updates {
		l.samples[n-1].presented = s.FramesPresented // no tick since: the span grows
		return
	}
	l.samples = append(l.samples, presentSample{s.Updates, s.FramesPresented})
}

// PresentSpan is the frames a live game presented while it ran ticks
// From to To (exclusive): the page's presents row.
type PresentSpan struct {
	From      uint64 `json:"from"`
	To        uint64 `json:"to"`
	Presented uint64 `json:"presented"`
}

// Presents appends to dst the game's presents over spans of ticks, one
// span a recording chunk, in tick order, and returns it; nothing unless
// [Live.Watch] was called. The spans count the game's updates, which are
// its ticks in a solo session. Any goroutine may call it.
func (l *Live) Presents(dst []PresentSpan) []PresentSpan {
	l.mu.Lock()
	defer l.mu.Unlock()
	var prev presentSample
	for _, s := range l.samples {
		if s.updates > prev.updates {
			dst = append(dst, PresentSpan{From: prev.updates, To: s.updates, Presented: s.presented - prev.presented})
		}
		prev = s
	}
	return dst
}

func (l *Live) wake() {
	select {
	case l.more <- struct{}{}:
	default:
	}
}

// figures brings the Replay's net figures (a match's, [Replay.Net]) and
// its frames presented after each tick (a solo session's, Tick.Presented)
// up to what the recording holds so far: it decodes what was written
// since the last request, on the request's turn (under run), never the
// game's. A solo session's spans of presents are the game's counters
// ([Live.Presents]).
func (l *Live) figures() error {
	if l.rep == nil || l.figErr != nil {
		return l.figErr
	}
	if l.figs == nil {
		r, err := recording.NewReader(&liveSnapshot{l: l}, "the live session")
		if err != nil { // the header is written before the first tick
			l.figErr = fmt.Errorf("inspect: the live session's figures: %w", err)
			return l.figErr
		}
		l.figs = r
		l.figRead = newFigureReader(r)
	}
	for {
		it, err := l.figs.Next()
		switch {
		case err == nil:
			l.figRead.add(it)
			continue
		case errors.Is(err, io.EOF), errors.Is(err, recording.ErrIncomplete):
		default:
			l.figErr = fmt.Errorf("inspect: the live session's figures: %w", err)
		}
		f := l.figRead.figures()
		l.rep.figures.Net, l.rep.figures.Match, l.rep.figures.ticks = f.Net, f.Match, f.ticks
		return l.figErr
	}
}

// liveSnapshot reads the recording as far as it is written, then says
// io.EOF: the figures' reader takes that as a recording still being
// written (recording.ErrIncomplete) and reads on from there next time.
type liveSnapshot struct {
	l   *Live
	off int
}

func (r *liveSnapshot) Read(p []byte) (int, error) {
	r.l.mu.Lock()
	n := copy(p, r.l.data[r.off:])
	r.l.mu.Unlock()
	r.off += n
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// Recorded returns the size of the recording so far, in bytes.
func (l *Live) Recorded() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.data)
}

// Follow starts the follower's turn: it takes the Live's lock, which the
// follower holds from then on except at [Live.Yield] and while its
// reader ([Live.Reader]) waits, and from then on the page's requests run
// on the follower's goroutine, at Yield and while the reader waits.
// Call it on the follower's goroutine before reading the recording;
// [Live.Stop] ends the turn.
func (l *Live) Follow() {
	l.run.Lock()
	l.following.Store(true)
}

// do runs a request's fn on the follower's goroutine between two of its
// ticks, or on the caller's under the Live's lock when the follower has
// not begun or has stopped. A request's goroutine calls it.
func (l *Live) do(fn func()) {
	if l.following.Load() {
		c := liveCall{fn: fn, done: make(chan struct{})}
		select {
		case l.calls <- &c:
			<-c.done
			if c.p != nil {
				panic(c.p)
			}
			return
		case <-l.stopped:
		}
	}
	l.run.Lock()
	defer l.run.Unlock()
	fn()
}

// serve runs the requests waiting for the follower, which holds run.
func (l *Live) serve() {
	for {
		select {
		case c := <-l.calls:
			c.run()
		default:
			return
		}
	}
}

// Attach hands the follower's Replay over, once its first tick ran.
func (l *Live) Attach(rep *Replay) { l.rep = rep }

// Yield lets waiting requests run, then puts the world back at the live
// end (the follower's next tick needs it there). The follower calls it
// between ticks.
func (l *Live) Yield() error {
	l.serve()
	l.run.Unlock()
	l.run.Lock()
	return l.resume()
}

func (l *Live) resume() error {
	if l.rep == nil {
		return nil
	}
	return l.rep.resume()
}

// Stop ends the follower's turn: the session ended (err nil, and the
// Replay is finished, seeking from then on) or the follower failed with
// err, which requests then report.
func (l *Live) Stop(err error) {
	if err == nil && l.rep != nil {
		err = l.rep.Finish()
	}
	l.end, l.fin = err, true
	l.following.Store(false)
	close(l.stopped)
	l.run.Unlock()
}

// Followed returns the number of ticks the follower has replayed so far.
// It waits for the follower's next tick.
func (l *Live) Followed() int {
	n := 0
	l.do(func() {
		if l.rep != nil {
			n = l.rep.Ticks()
		}
	})
	return n
}

// Reader returns the recording as it grows, for the follower: at the end
// of what was written, and while no page has asked for LiveOptions.Idle
// (until the recording is closed), it lets the Live's lock go and waits
// for more or for a request; it ends (io.EOF) after [Live.Close]. One
// reader at a time.
func (l *Live) Reader() io.Reader { return &liveReader{l: l} }

type liveReader struct {
	l   *Live
	off int
}

func (r *liveReader) Read(p []byte) (int, error) {
	l := r.l
	for {
		l.mu.Lock()
		closed, n := l.closed, 0
		if closed || !l.idleNow() {
			n = copy(p, l.data[r.off:])
		}
		l.mu.Unlock()
		r.off += n
		if n > 0 || len(p) == 0 {
			return n, nil
		}
		if closed {
			return 0, io.EOF
		}
		l.run.Unlock()
		select {
		case <-l.more:
			l.run.Lock()
		case c := <-l.calls:
			l.run.Lock()
			c.run()
		}
		if err := l.resume(); err != nil {
			return 0, err
		}
	}
}
