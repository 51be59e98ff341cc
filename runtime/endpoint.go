package runtime

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/metronome-go/metronome/runtime/work"

	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

var (
	// ErrNothingDeferred is returned by [ShutdownEndpoint.Accept] and
	// [ShutdownEndpoint.Refuse] when no request is waiting for an answer.
	ErrNothingDeferred = errors.New("runtime: no shutdown request is deferred")
	// ErrPolicyInstalled is returned by [ShutdownEndpoint.SetPolicy] once a
	// policy is installed or the session runs: a session has one policy.
	ErrPolicyInstalled = errors.New("runtime: a session's shutdown policy is installed once, before it runs")
)

// ShutdownReason says why a shutdown was requested. Applications may use
// their own values besides these.
type ShutdownReason string

// Reasons the runtime and common callers use.
const (
	// ReasonWindowClose is the window's close button (or the window
	// manager's close), sent by the runtime.
	ReasonWindowClose ShutdownReason = "window close"
	// ReasonQuit is a quit action of the game.
	ReasonQuit ShutdownReason = "quit"
	// ReasonTool is a request from a tool or host on another goroutine.
	ReasonTool ShutdownReason = "tool"
)

// ShutdownRequest is one ordinary request to end the session.
type ShutdownRequest struct {
	Reason ShutdownReason
	// At is the session clock's reading when the request was made.
	At timing.Instant
	// Seq numbers the session's requests from 1, in the order made.
	Seq uint64
	// Repeats counts the requests deferred before this one that are still
	// unanswered: 0 for a fresh request, 1 for a second close while the
	// game asks "save first?". The policy's answer covers them all.
	Repeats int
}

// ShutdownDecision is a [ShutdownPolicy]'s answer.
type ShutdownDecision uint8

const (
	// ShutdownAccept stops the session: no further update starts.
	ShutdownAccept ShutdownDecision = iota
	// ShutdownRefuse drops the request; the session goes on and a later
	// request is decided afresh.
	ShutdownRefuse
	// ShutdownDefer keeps the request open until the game answers it with
	// [ShutdownEndpoint.Accept] or [ShutdownEndpoint.Refuse]; meanwhile it
	// is [ShutdownEndpoint.Deferred], and later requests join it.
	ShutdownDefer
)

func (d ShutdownDecision) String() string {
	switch d {
	case ShutdownAccept:
		return "accept"
	case ShutdownRefuse:
		return "refuse"
	case ShutdownDefer:
		return "defer"
	}
	return fmt.Sprintf("ShutdownDecision(%d)", uint8(d))
}

// ShutdownPolicy is the host's decision on an ordinary shutdown request.
// It runs on the simulation owner, before the first update whose mailbox
// drain starts after the request was made (after that drain: a request a
// mailbox item makes waits for the following update), so it may read game
// state ("is there anything unsaved?") and set some (open a
// confirm dialog) without locks. It must not call the endpoint's Accept or
// Refuse: its return value is the answer. A panic or an answer other than
// the three decisions fails the session in the phase "shutdown policy".
type ShutdownPolicy func(req ShutdownRequest) ShutdownDecision

// ShutdownStats count a session's ordinary shutdown requests and their
// outcomes, read with [ShutdownEndpoint.Stats].
type ShutdownStats struct {
	// Requests counts requests made; Accepted, Refused and Deferred count
	// answers, the policy's and the game's (a deferred request answered
	// later counts as deferred and then accepted or refused).
	Requests, Accepted, Refused, Deferred uint64
}

// ShutdownEndpoint takes a session's ordinary shutdown requests — the
// window's close button, a quit action, a tool — and puts them to the
// session's one [ShutdownPolicy]. [GameRuntime.Stop],
// [TickContext.RequestStop] and failures never pass through it: they stop
// the session unconditionally. Its methods are safe from any goroutine.
//
// Without a policy (the default) a request is accepted at once, on the
// goroutine that made it, exactly like a stop. With one, requests are
// staged and decided on the simulation owner before the next update, in
// the order made; so on a virtual clock the update that decides a request
// depends only on the instant it was made (the window's close is made at
// the platform's poll, which precedes the updates of its instant).
type ShutdownEndpoint struct {
	// The session's handles: its clock, its stop, its failures and
	// lifecycle; recording says that decided requests are kept for the
	// recording.
	clock     timing.Clock
	stop      *StopSignal
	fails     *failures
	life      *Lifecycle
	recording bool

	mu       sync.Mutex
	policy   ShutdownPolicy
	staged   []ShutdownRequest
	spare    []ShutdownRequest
	open     ShutdownRequest // the deferred request, when hasOpen
	hasOpen  bool
	accepted ShutdownRequest // the request that ended the session, when hasEnded
	hasEnded bool
	closed   bool
	seq      uint64
	stats    ShutdownStats
	pending  atomic.Int32 // len(staged), read without the lock before each update

	// closeLevel is the window's close intent at the previous sample.
	// Platform thread only.
	closeLevel bool

	// taken are the requests the coming update decides, taken before its
	// mailbox drain; decided are those put to the policy, for its
	// recording. Simulation owner only.
	taken   []ShutdownRequest
	decided []ShutdownRequest
	// replaying: the policy gets the recording's requests; live ones
	// (closing the replay's window, a tool) end the replay at once, and
	// the replayed game's own, made while replayingSim is set, are left
	// to the recording.
	replaying    bool
	replayingSim atomic.Bool
}

func (e *ShutdownEndpoint) init(r *GameRuntime) {
	e.clock, e.stop, e.fails, e.life = r.clock, r.stop, &r.fails, r.life
	e.recording = r.opts.Record.Writer != nil
	e.policy = r.opts.ShutdownPolicy
	e.replaying = r.opts.Record.Reader != nil
}

// SetPolicy installs the session's policy, once, before Run starts the
// loop (in InitSimulation at the latest). It returns [ErrPolicyInstalled]
// when a policy is already installed (also through
// [Options.ShutdownPolicy]) or the session is running, and an error for a
// nil policy.
func (e *ShutdownEndpoint) SetPolicy(p ShutdownPolicy) error {
	if p == nil {
		return errors.New("runtime: shutdown policy is nil")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.policy != nil || e.life.State() >= StateRunning {
		return ErrPolicyInstalled
	}
	e.policy = p
	return nil
}

// Request asks the session to end for reason. Without a policy the session
// stops at once; with one the request is decided before the next update.
// It returns [work.ErrClosed] when the session is already stopping.
func (e *ShutdownEndpoint) Request(reason ShutdownReason) error {
	e.mu.Lock()
	if e.closed || e.stop.Requested() {
		e.mu.Unlock()
		return work.ErrClosed
	}
	if e.replaying && e.replayingSim.Load() {
		// Made by the replayed game: the recording holds the request
		// and puts it to the policy where it was decided.
		e.mu.Unlock()
		return nil
	}
	e.seq++
	e.stats.Requests++
	req := ShutdownRequest{Reason: reason, At: e.clock.Now(), Seq: e.seq}
	if e.policy == nil || e.replaying {
		e.stats.Accepted++
		e.accepted, e.hasEnded = req, true
		e.mu.Unlock()
		e.stop.Request()
		return nil
	}
	e.staged = append(e.staged, req)
	e.pending.Add(1)
	e.mu.Unlock()
	return nil
}

// Deferred returns the request the policy deferred and the game has not
// answered yet: while it is there, show the question ("save first?").
func (e *ShutdownEndpoint) Deferred() (ShutdownRequest, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.open, e.hasOpen
}

// Accept answers the deferred request: the session stops, no further
// update starts. It returns [ErrNothingDeferred] when nothing is deferred.
func (e *ShutdownEndpoint) Accept() error {
	e.mu.Lock()
	if !e.hasOpen {
		e.mu.Unlock()
		return ErrNothingDeferred
	}
	e.hasOpen = false
	e.stats.Accepted++
	e.accepted, e.hasEnded = e.open, true
	e.mu.Unlock()
	e.stop.Request()
	return nil
}

// Refuse answers the deferred request: the session goes on. It returns
// [ErrNothingDeferred] when nothing is deferred.
func (e *ShutdownEndpoint) Refuse() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.hasOpen {
		return ErrNothingDeferred
	}
	e.hasOpen = false
	e.stats.Refused++
	return nil
}

// Ended returns the request whose acceptance stopped the session, if one
// did (a stop or a failure ends a session without one).
func (e *ShutdownEndpoint) Ended() (ShutdownRequest, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.accepted, e.hasEnded
}

// Stats returns the request counts.
func (e *ShutdownEndpoint) Stats() ShutdownStats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}

// observeClose turns the window's close intent into requests, one per
// rising edge: an intent that stays set is one press, so a refused close is
// asked again only by pressing again. Platform thread only.
func (e *ShutdownEndpoint) observeClose(intent bool) {
	if intent && !e.closeLevel {
		_ = e.Request(ReasonWindowClose) // work.ErrClosed: already stopping
	}
	e.closeLevel = intent
}

// take moves the staged requests to the batch that negotiate decides, on
// the simulation owner before an update's mailbox drain, and returns how
// many it took. Requests made later (by a mailbox item, or by another
// goroutine during the drain) wait for the next update: the state a
// recording checkpoints before the policy runs is then the state after the
// previous update, which is where a replay checks it.
func (e *ShutdownEndpoint) take() int {
	if e.pending.Load() == 0 {
		return 0
	}
	e.mu.Lock()
	e.taken = e.staged
	e.staged, e.spare = e.spare[:0], nil
	e.pending.Store(0)
	e.mu.Unlock()
	return len(e.taken)
}

// negotiate puts the requests take took to the policy, on the simulation
// owner after the update's mailbox drain, and reports whether the session
// must stop (a request was accepted, or the policy failed).
func (e *ShutdownEndpoint) negotiate() bool {
	batch := e.taken
	if len(batch) == 0 {
		return false
	}
	e.mu.Lock()
	policy := e.policy
	e.mu.Unlock()
	stop := false
	for i := range batch {
		if stop {
			break
		}
		if e.recording {
			e.decided = append(e.decided, batch[i])
		}
		stop = e.decide(policy, batch[i])
	}
	e.taken = nil
	e.mu.Lock()
	if e.spare == nil {
		e.spare = batch[:0]
	}
	e.mu.Unlock()
	return stop
}

// replay puts a recorded tick's requests to the policy, as negotiate put
// them before the recorded update. The recorded session ran that update,
// so none was accepted then: an acceptance now is a divergence.
func (e *ShutdownEndpoint) replay(tick uint64, reqs []recording.ShutdownRequest) error {
	e.mu.Lock()
	policy := e.policy
	e.mu.Unlock()
	if policy == nil {
		return fmt.Errorf("runtime: replay: tick %d was preceded by %d shutdown requests put to a policy, and this game installs none", tick, len(reqs))
	}
	for i := range reqs {
		q := &reqs[i]
		req := ShutdownRequest{Reason: ShutdownReason(q.Reason), At: q.At, Seq: q.Seq}
		e.mu.Lock()
		e.seq = max(e.seq, q.Seq)
		e.stats.Requests++
		e.mu.Unlock()
		if e.decide(policy, req) {
			if e.fails.any() {
				return nil // the policy failed: that is the session's error
			}
			return fmt.Errorf("runtime: replay: the shutdown policy accepted request %d (%s) before tick %d, where the recorded session went on", q.Seq, q.Reason, tick)
		}
	}
	return nil
}

// decide asks the policy about one request and applies its answer.
func (e *ShutdownEndpoint) decide(policy ShutdownPolicy, req ShutdownRequest) bool {
	e.mu.Lock()
	if e.hasOpen {
		req.Repeats = e.open.Repeats + 1
	}
	e.mu.Unlock()
	var d ShutdownDecision
	if err := guard(func() error { d = policy(req); return nil }); err != nil {
		e.fails.fail(PhaseShutdownPolicy, err)
		return true
	}
	e.mu.Lock()
	switch d {
	case ShutdownAccept:
		e.hasOpen = false
		e.stats.Accepted++
		e.accepted, e.hasEnded = req, true
	case ShutdownRefuse:
		e.hasOpen = false
		e.stats.Refused++
	case ShutdownDefer:
		e.open, e.hasOpen = req, true
		e.stats.Deferred++
	default:
		e.mu.Unlock()
		e.fails.fail(PhaseShutdownPolicy, fmt.Errorf("policy answered %v for request %d (%s), want accept, refuse or defer", d, req.Seq, req.Reason))
		return true
	}
	e.mu.Unlock()
	if d == ShutdownAccept {
		e.stop.Request()
		return true
	}
	return false
}

// close ends negotiation when the session stops: staged and deferred
// requests are dropped, later ones refused.
func (e *ShutdownEndpoint) close() {
	e.mu.Lock()
	e.closed = true
	e.staged = nil
	e.pending.Store(0)
	e.hasOpen = false
	e.mu.Unlock()
}
