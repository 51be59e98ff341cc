package inspect

import (
	"errors"
	"io"
	"sync"
)

// A live game is inspected through its recording: the game records into
// a [Live] in memory (its recording writer's own goroutine hands chunks
// over, so the game's tick only encodes, as it does for --record), and a
// follower goroutine replays that recording as it grows, keeping
// keyframes on its own time. The page reads the follower's world, never
// the game's: a slow request holds the follower up, not the tick.

// liveBufferCap is the memory recording's first capacity: minutes of a
// game's recording before it grows (appending there is the recording
// writer's goroutine's work, never the tick's).
const liveBufferCap = 1 << 20

// Live is a game's session inspected while it plays: an io.Writer its
// recording goes to (framework.RunOptions.RecordTo), the follower that
// replays it as it grows (framework.InspectLive), and the [Replay] the
// follower fills, which [ListenLive] and [NewLiveHandler] serve.
//
// The follower holds the Live's lock while it replays and lets it go
// between ticks and while it waits for more of the recording, so a
// request runs between two of the follower's ticks and finds the world
// where it left it; the follower then puts the world back at the live
// end before its next tick.
type Live struct {
	run sync.Mutex // the follower's while it replays, a request's while it runs
	rep *Replay    // under run; nil before the first tick
	end error      // under run: why the follower stopped
	fin bool       // under run: the follower stopped

	mu     sync.Mutex // guards data and closed
	data   []byte
	closed bool
	more   chan struct{} // a Write or Close happened
}

// NewLive returns a Live with nothing recorded yet.
func NewLive() *Live {
	return &Live{data: make([]byte, 0, liveBufferCap), more: make(chan struct{}, 1)}
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
	l.mu.Unlock()
	l.wake()
	return len(p), nil
}

// Close says the session's recording is complete: the follower reads to
// its end and stops. Call it once the recording is closed.
func (l *Live) Close() error {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.wake()
	return nil
}

func (l *Live) wake() {
	select {
	case l.more <- struct{}{}:
	default:
	}
}

// Recorded returns the size of the recording so far, in bytes.
func (l *Live) Recorded() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.data)
}

// Follow starts the follower's turn: it takes the Live's lock, which the
// follower holds from then on except at [Live.Yield] and while its
// reader ([Live.Reader]) waits. Call it on the follower's goroutine
// before reading the recording; [Live.Stop] ends the turn.
func (l *Live) Follow() { l.run.Lock() }

// Attach hands the follower's Replay over, once its first tick ran.
func (l *Live) Attach(rep *Replay) { l.rep = rep }

// Yield lets waiting requests run, then puts the world back at the live
// end (the follower's next tick needs it there). The follower calls it
// between ticks.
func (l *Live) Yield() error {
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
	l.run.Unlock()
}

// Reader returns the recording as it grows, for the follower: at the end
// of what was written it lets the Live's lock go and waits for more, and
// it ends (io.EOF) after [Live.Close]. One reader at a time.
func (l *Live) Reader() io.Reader { return &liveReader{l: l} }

type liveReader struct {
	l   *Live
	off int
}

func (r *liveReader) Read(p []byte) (int, error) {
	l := r.l
	for {
		l.mu.Lock()
		n := copy(p, l.data[r.off:])
		closed := l.closed
		l.mu.Unlock()
		r.off += n
		if n > 0 || len(p) == 0 {
			return n, nil
		}
		if closed {
			return 0, io.EOF
		}
		l.run.Unlock()
		<-l.more
		l.run.Lock()
		if err := l.resume(); err != nil {
			return 0, err
		}
	}
}
