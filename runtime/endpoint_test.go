package runtime_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/runtime/work"
	"github.com/metronome-go/metronome/timing"
)

// press is the user pressing the window's close button at at and the
// adapter reporting it as one edge: the intent clears 20 ms later, after
// a poll (every 4 ms) has seen it.
func press(d *runtimetest.Display, at timing.Instant) {
	d.RequestClose(at)
	d.At(at.AddSaturating(20*time.Millisecond), func(s *runtime.WindowState) { s.CloseRequested = false })
}

// asked is what a policy saw: the request and the number of updates run
// before it. The policy and Update both touch it without a lock, so the
// race detector checks that the policy runs on the simulation owner.
type asked struct {
	req    runtime.ShutdownRequest
	before int64
}

// policyRig is a rig whose policy answers with decide and records what it
// was asked.
type policyRig struct {
	*rig
	asks []asked
}

func newPolicyRig(mode runtime.Mode, decide func(req runtime.ShutdownRequest) runtime.ShutdownDecision) *policyRig {
	p := &policyRig{rig: newRig(mode, nil)}
	p.opts.ShutdownPolicy = func(req runtime.ShutdownRequest) runtime.ShutdownDecision {
		p.asks = append(p.asks, asked{req: req, before: p.game.updates.Load()})
		p.j.add(fmt.Sprintf("policy %s #%d +%d", req.Reason, req.Seq, req.Repeats))
		return decide(req)
	}
	return p
}

// TestShutdownPolicies: the window's close goes to the policy, which may
// accept, refuse or defer; a deferred request is answered by the game.
func TestShutdownPolicies(t *testing.T) {
	tests := []struct {
		name     string
		decision runtime.ShutdownDecision
		// answer, when set, is the game's answer to a deferred request, 3
		// updates after it saw it.
		answer    func(*runtime.ShutdownEndpoint) error
		wantEnded bool // the close ended the session (otherwise stopAfter does)
		wantStats runtime.ShutdownStats
	}{
		{"accept", runtime.ShutdownAccept, nil, true, runtime.ShutdownStats{Requests: 1, Accepted: 1}},
		{"refuse", runtime.ShutdownRefuse, nil, false, runtime.ShutdownStats{Requests: 1, Refused: 1}},
		{"defer then accept", runtime.ShutdownDefer, (*runtime.ShutdownEndpoint).Accept, true, runtime.ShutdownStats{Requests: 1, Deferred: 1, Accepted: 1}},
		{"defer then refuse", runtime.ShutdownDefer, (*runtime.ShutdownEndpoint).Refuse, false, runtime.ShutdownStats{Requests: 1, Deferred: 1, Refused: 1}},
	}
	for _, tc := range tests {
		for _, mode := range modes {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					r := newPolicyRig(mode, func(runtime.ShutdownRequest) runtime.ShutdownDecision { return tc.decision })
					r.game.stopAfter = 30
					closeAt := r.clock.At(100 * time.Millisecond)
					press(r.display, closeAt)
					var sawDeferred int64
					r.game.onUpdate = func(g *fakeGame, tick *runtime.TickContext) {
						n := g.updates.Load()
						if len(r.asks) > 0 && r.asks[0].before >= n {
							t.Errorf("update %d ran before the policy's decision was made", n)
						}
						ep := g.rt.Shutdown()
						req, ok := ep.Deferred()
						if ok && sawDeferred == 0 {
							sawDeferred = n
							if req.Reason != runtime.ReasonWindowClose || req.Seq != 1 {
								t.Errorf("Deferred: got %+v, want the first request, a window close", req)
							}
						}
						if ok && tc.answer != nil && n == sawDeferred+3 {
							if err := tc.answer(ep); err != nil {
								t.Errorf("answer: %v", err)
							}
							if _, still := ep.Deferred(); still {
								t.Error("Deferred after the answer: got true, want false")
							}
						}
					}
					rt, err := r.run()
					if err != nil {
						t.Fatal(err)
					}
					if len(r.asks) != 1 {
						t.Fatalf("policy asked %d times, want once (one press)", len(r.asks))
					}
					a := r.asks[0]
					if a.req.Reason != runtime.ReasonWindowClose || a.req.At < closeAt || a.req.At > closeAt.AddSaturating(4*time.Millisecond) {
						t.Errorf("request: got %+v, want a window close made at the first poll at or after %v", a.req, closeAt)
					}
					if got := rt.Shutdown().Stats(); got != tc.wantStats {
						t.Errorf("Stats: got %+v, want %+v", got, tc.wantStats)
					}
					req, ended := rt.Shutdown().Ended()
					if ended != tc.wantEnded || (ended && req.Seq != 1) {
						t.Errorf("Ended: got %+v %v, want %v", req, ended, tc.wantEnded)
					}
					updates := r.game.updates.Load()
					switch {
					case tc.wantEnded && tc.answer == nil && updates != a.before:
						t.Errorf("accepted at once: %d updates, want %d (none after the decision)", updates, a.before)
					case tc.wantEnded && tc.answer != nil && updates != sawDeferred+3:
						t.Errorf("accepted by the game in update %d: %d updates ran, want that one to be the last", sawDeferred+3, updates)
					case !tc.wantEnded && updates != 30:
						t.Errorf("refused: %d updates, want the 30 the game runs", updates)
					}
					if tc.decision == runtime.ShutdownDefer && sawDeferred != a.before+1 {
						t.Errorf("deferred request first seen in update %d, want the update right after the policy (%d)", sawDeferred, a.before+1)
					}
				})
			})
		}
	}
}

// TestSecondCloseWhileDeferred: a close while the game asks "save first?"
// joins the deferred request; the policy decides again with Repeats set.
// After a refusal a new press is a fresh request.
func TestSecondCloseWhileDeferred(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				calls := 0
				r := newPolicyRig(mode, func(req runtime.ShutdownRequest) runtime.ShutdownDecision {
					calls++
					switch {
					case calls == 2:
						return runtime.ShutdownRefuse // the second press cancels the question
					case req.Repeats > 0:
						return runtime.ShutdownAccept // a second press decides
					}
					return runtime.ShutdownDefer
				})
				r.game.stopAfter = 1000
				for _, ms := range []time.Duration{100, 200, 400, 500} {
					press(r.display, r.clock.At(ms*time.Millisecond))
				}
				rt, err := r.run()
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, a := range r.asks {
					got = append(got, fmt.Sprintf("#%d+%d", a.req.Seq, a.req.Repeats))
				}
				want := []string{"#1+0", "#2+1", "#3+0", "#4+1"}
				if !slices.Equal(got, want) {
					t.Errorf("policy saw %v, want %v", got, want)
				}
				req, ok := rt.Shutdown().Ended()
				if !ok || req.Seq != 4 || req.Repeats != 1 {
					t.Errorf("Ended: got %+v %v, want request 4 joined to 3", req, ok)
				}
				if want := (runtime.ShutdownStats{Requests: 4, Deferred: 2, Refused: 1, Accepted: 1}); rt.Shutdown().Stats() != want {
					t.Errorf("Stats: got %+v, want %+v", rt.Shutdown().Stats(), want)
				}
			})
		})
	}
}

// TestCloseHeldIsOnePress: an intent that stays set is one request, not
// one per poll.
func TestCloseHeldIsOnePress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newPolicyRig(runtime.Sequential, func(runtime.ShutdownRequest) runtime.ShutdownDecision { return runtime.ShutdownRefuse })
		r.game.stopAfter = 40
		r.display.At(r.clock.At(50*time.Millisecond), func(s *runtime.WindowState) { s.CloseRequested = true }) // never cleared
		rt, err := r.run()
		if err != nil {
			t.Fatal(err)
		}
		if got := rt.Shutdown().Stats(); got.Requests != 1 || len(r.asks) != 1 {
			t.Errorf("held close: %d requests, policy asked %d times, want 1 and 1", got.Requests, len(r.asks))
		}
	})
}

// TestStopsBypassNegotiation: Stop, RequestStop and failures end the
// session whatever the policy says, and a pending or deferred request does
// not hold them.
func TestStopsBypassNegotiation(t *testing.T) {
	tests := []struct {
		name    string
		stop    func(t *testing.T, g *fakeGame, tick *runtime.TickContext)
		wantErr bool
	}{
		{"Stop from a tool", func(t *testing.T, g *fakeGame, _ *runtime.TickContext) {
			rt := g.rt
			go rt.Stop()
		}, false},
		{"RequestStop", func(t *testing.T, _ *fakeGame, tick *runtime.TickContext) {
			if err := tick.RequestStop(); err != nil {
				t.Error(err)
			}
		}, false},
		{"failure", func(*testing.T, *fakeGame, *runtime.TickContext) {
			panic(errInjected)
		}, true},
	}
	for _, tc := range tests {
		for _, mode := range modes {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					r := newPolicyRig(mode, func(req runtime.ShutdownRequest) runtime.ShutdownDecision {
						if req.Repeats == 0 {
							return runtime.ShutdownDefer
						}
						return runtime.ShutdownRefuse
					})
					r.game.stopAfter = 1000
					press(r.display, r.clock.At(50*time.Millisecond))
					stopAt := int64(-1)
					r.game.onUpdate = func(g *fakeGame, tick *runtime.TickContext) {
						n := g.updates.Load()
						if _, deferred := g.rt.Shutdown().Deferred(); deferred && stopAt < 0 {
							// A second request, refused, is still being asked.
							if err := g.rt.Shutdown().Request(runtime.ReasonTool); err != nil {
								t.Error(err)
							}
							stopAt = n + 5
						}
						if n == stopAt {
							tc.stop(t, g, tick)
						}
					}
					rt, err := r.run()
					if tc.wantErr != (err != nil) {
						t.Fatalf("Run: got %v, want error %v", err, tc.wantErr)
					}
					if tc.wantErr && !errors.Is(err, errInjected) {
						t.Errorf("Run: got %v, want the injected failure", err)
					}
					if stopAt < 0 {
						t.Fatal("the close was never deferred")
					}
					if n := r.game.updates.Load(); n > stopAt+1 {
						t.Errorf("%d updates after the stop in update %d: want it to end the session at once", n-stopAt, stopAt)
					}
					if _, ended := rt.Shutdown().Ended(); ended {
						t.Error("Ended: got a request, want none (the stop bypassed negotiation)")
					}
					if len(r.asks) != 2 {
						t.Errorf("policy asked %d times, want 2 (the close and the tool's request, never the stop)", len(r.asks))
					}
					if err := rt.Shutdown().Request(runtime.ReasonTool); !errors.Is(err, work.ErrClosed) {
						t.Errorf("Request after the session: got %v, want ErrClosed", err)
					}
				})
			})
		}
	}
}

// TestDefaultPolicyAcceptsAtOnce: without a policy a request stops the
// session at once, from any goroutine, as a stop would.
func TestDefaultPolicyAcceptsAtOnce(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.game.stopAfter = 1000
				r.game.onUpdate = func(g *fakeGame, _ *runtime.TickContext) {
					if g.updates.Load() == 4 {
						ep := g.rt.Shutdown()
						go func() {
							if err := ep.Request(runtime.ReasonTool); err != nil {
								t.Error(err)
							}
						}()
					}
				}
				rt, err := r.run()
				if err != nil {
					t.Fatal(err)
				}
				req, ok := rt.Shutdown().Ended()
				if !ok || req.Reason != runtime.ReasonTool {
					t.Errorf("Ended: got %+v %v, want the tool's request", req, ok)
				}
				if n := r.game.updates.Load(); n > 6 {
					t.Errorf("%d updates, want the session to stop right after update 4", n)
				}
				if err := rt.Shutdown().Accept(); !errors.Is(err, runtime.ErrNothingDeferred) {
					t.Errorf("Accept with nothing deferred: got %v, want ErrNothingDeferred", err)
				}
				if err := rt.Shutdown().Refuse(); !errors.Is(err, runtime.ErrNothingDeferred) {
					t.Errorf("Refuse with nothing deferred: got %v, want ErrNothingDeferred", err)
				}
			})
		})
	}
}

// TestShutdownPolicyFailures: a panicking policy or an invalid answer
// fails the session in PhaseShutdownPolicy.
func TestShutdownPolicyFailures(t *testing.T) {
	tests := []struct {
		name   string
		policy runtime.ShutdownPolicy
		want   string
	}{
		{"panic", func(runtime.ShutdownRequest) runtime.ShutdownDecision { panic("no save slot") }, "panic: no save slot"},
		{"invalid answer", func(runtime.ShutdownRequest) runtime.ShutdownDecision { return 7 }, "policy answered ShutdownDecision(7) for request 1 (quit), want accept, refuse or defer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(runtime.Concurrent, nil)
				r.opts.ShutdownPolicy = tc.policy
				r.game.stopAfter = 1000
				r.game.onUpdate = func(g *fakeGame, _ *runtime.TickContext) {
					if g.updates.Load() == 2 {
						_ = g.rt.Shutdown().Request(runtime.ReasonQuit)
					}
				}
				_, err := r.run()
				var pe *runtime.PhaseError
				if !errors.As(err, &pe) || pe.Phase != runtime.PhaseShutdownPolicy || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("Run: got %v, want a %q failure containing %q", err, runtime.PhaseShutdownPolicy, tc.want)
				}
				if n := r.game.updates.Load(); n != 2 {
					t.Errorf("%d updates, want 2 (the policy fails before the third)", n)
				}
			})
		})
	}
}

// TestSetPolicy: one policy per session, installed before it runs.
func TestSetPolicy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		refuse := func(runtime.ShutdownRequest) runtime.ShutdownDecision { return runtime.ShutdownRefuse }
		r := newRig(runtime.Sequential, nil)
		r.opts.ShutdownPolicy = refuse
		r.game.stopAfter = 1
		rt, err := r.build()
		if err != nil {
			t.Fatal(err)
		}
		if err := rt.Shutdown().SetPolicy(refuse); !errors.Is(err, runtime.ErrPolicyInstalled) {
			t.Errorf("SetPolicy over Options.ShutdownPolicy: got %v, want ErrPolicyInstalled", err)
		}
		r2 := newRig(runtime.Sequential, nil)
		r2.game.stopAfter = 30
		var lateErr error
		calls := 0
		r2.game.onPlatform = func(g *fakeGame, plat *runtime.Platform) error {
			rt := g.rt
			return rt.Shutdown().SetPolicy(func(runtime.ShutdownRequest) runtime.ShutdownDecision {
				calls++
				return runtime.ShutdownRefuse
			})
		}
		r2.game.onUpdate = func(g *fakeGame, _ *runtime.TickContext) {
			if g.updates.Load() == 1 {
				lateErr = g.rt.Shutdown().SetPolicy(refuse)
				_ = g.rt.Shutdown().Request(runtime.ReasonQuit)
			}
		}
		if err := rt.Shutdown().SetPolicy(nil); err == nil {
			t.Error("SetPolicy(nil): got nil, want an error")
		}
		rt2, err := r2.run()
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(lateErr, runtime.ErrPolicyInstalled) {
			t.Errorf("SetPolicy while running: got %v, want ErrPolicyInstalled", lateErr)
		}
		if calls != 1 || r2.game.updates.Load() != 30 {
			t.Errorf("policy from InitPlatform: %d calls, %d updates, want 1 call refusing and all 30 updates", calls, r2.game.updates.Load())
		}
		if got := rt2.Shutdown().Stats(); got != (runtime.ShutdownStats{Requests: 1, Refused: 1}) {
			t.Errorf("Stats: got %+v", got)
		}
		if err := rt.Run(); err != nil {
			t.Fatal(err) // the first runtime, to release its context
		}
	})
}

// TestShutdownRequestsOnVirtualTime: on a manual clock a close made at an
// instant is decided before the same update in both modes, on every run,
// and a request made before Run waits for the first update.
func TestShutdownRequestsOnVirtualTime(t *testing.T) {
	type outcome struct {
		before int
		at     timing.Instant
		seq    uint64
	}
	run := func(t *testing.T, mode runtime.Mode) ([]outcome, []timing.Instant) {
		clock := runtimetest.NewClock()
		ctx, fakes := runtimetest.NewAdapters(clock)
		fakes.Discard()
		g := &leanGame{stopAfter: 60}
		var got []outcome
		var updates []timing.Instant
		g.onUpdate = func(int) { updates = append(updates, clock.Now()) }
		opts := runtimetest.Options(clock, mode)
		opts.Timing.Mode = timing.FixedMode
		opts.Timing.FixedStep = 10 * time.Millisecond
		opts.ShutdownPolicy = func(req runtime.ShutdownRequest) runtime.ShutdownDecision {
			got = append(got, outcome{before: g.updates, at: req.At, seq: req.Seq})
			return runtime.ShutdownRefuse
		}
		for _, ms := range []time.Duration{95, 203, 333} {
			press(fakes.Display, clock.At(ms*time.Millisecond))
		}
		rt, err := runtime.New(g, ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := rt.Shutdown().Request(runtime.ReasonTool); err != nil {
			t.Fatal(err)
		}
		if err := rt.Run(); err != nil {
			t.Fatal(err)
		}
		return got, updates
	}
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			want, updates := run(t, mode)
			if len(want) != 4 || want[0].before != 0 || want[0].seq != 1 {
				t.Fatalf("got %+v, want the early request before the first update, then three closes", want)
			}
			// Each close is decided before the first update at or after
			// the poll that saw it: the platform polls first at an instant.
			for i, o := range want[1:] {
				first := slices.IndexFunc(updates, func(at timing.Instant) bool { return at >= o.at })
				if o.before != first {
					t.Errorf("close %d made at %v decided after %d updates, want %d (the first update at or after it runs at %v)",
						i+1, o.at, o.before, first, updates[first])
				}
			}
			for i := range 5 {
				if got, _ := run(t, mode); !slices.Equal(got, want) {
					t.Fatalf("run %d: got %+v, want %+v", i, got, want)
				}
			}
		})
	}
}

// saveGame asks "save first?" when the window is closed with unsaved
// changes; its player answers two updates later.
type saveGame struct {
	runtime.Base
	rt      *runtime.GameRuntime
	unsaved bool
	asking  int // updates the question has been shown
}

func (g *saveGame) InitSimulation(sim *runtime.Simulation) error {
	return nil
}

// policy runs on the simulation owner, so it reads and sets game state.
func (g *saveGame) policy(req runtime.ShutdownRequest) runtime.ShutdownDecision {
	if !g.unsaved || req.Repeats > 0 { // nothing to lose, or closed twice
		return runtime.ShutdownAccept
	}
	fmt.Println(req.Reason, "with unsaved changes: save first?")
	return runtime.ShutdownDefer
}

func (g *saveGame) Update(tick *runtime.TickContext) error {
	if _, open := g.rt.Shutdown().Deferred(); open {
		if g.asking++; g.asking == 2 {
			fmt.Println("player: yes; saved")
			g.unsaved = false
			return g.rt.Shutdown().Accept()
		}
	}
	return nil
}

func ExampleShutdownEndpoint() {
	clock := timing.NewManualClock(0)
	ctx, fakes := runtimetest.NewAdapters(clock)
	fakes.Display.RequestClose(50 * timing.Instant(time.Millisecond))
	game := &saveGame{unsaved: true}
	opts := runtimetest.Options(clock, runtime.Concurrent)
	opts.ShutdownPolicy = game.policy
	rt, err := runtime.New(game, ctx, opts)
	game.rt = rt
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rt.Run())
	req, _ := rt.Shutdown().Ended()
	fmt.Println("ended by", req.Reason, "-", rt.Shutdown().Stats())
	// Output:
	// window close with unsaved changes: save first?
	// player: yes; saved
	// <nil>
	// ended by window close - {1 1 0 1}
}
