//go:build !js

package main

import (
	"context"
	"net/http"
	"os"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/internal/browsertest"
)

// BenchmarkInspectLivePage is what --inspect costs a live game at its
// real rate, four ways in the same run: Breakout at 120 Hz without the
// inspector (none), again without it (again: what two identical games
// differ by in the same run is the noise the others are judged against),
// with the live recording and its follower and no page open (nopage),
// and with the inspector's page open in headless chromium (page), which
// polls the live session as it does for anyone (twice a
// second: the session, the new ticks' timeline, then the tick at the live
// end with its entities, fields, input, resources and frame). The games
// take turns of a second (120 ticks) in an order that rotates, b.N ticks
// each in all; the page's requests wait outside its game's turns, so the
// follower's and chromium's work for it falls in them. Each reports what
// its ticks took in wall time (ns/tick: the tick's own work and whatever
// else on the machine delayed it, the follower and chromium included),
// the CPU time of the game's thread (cpu-ns/tick), both as ratios to
// none's in the same turns (x-none, cpu-x-none), the page's polls, and
// the load average before and after (load1-before, load1-after).
//
//	go test ./examples/breakout -run '^$' -bench InspectLivePage -benchtime 2400x -count 3
func BenchmarkInspectLivePage(b *testing.B) {
	type variant struct {
		name      string
		live      *inspect.Live
		sim       *frameworktest.Sim
		followed  chan error
		gate      *gate
		wall, cpu time.Duration
		polls     int
		lastTicks int
		follow    bool
		page      bool
	}
	vs := []*variant{{name: "none"}, {name: "again"}, {name: "nopage", follow: true}, {name: "page", follow: true, page: true}}
	var ctx = browsertest.Start(b, time.Hour)
	for _, v := range vs {
		opts := frameworktest.Options{Sets: small}
		if v.follow {
			v.live = inspect.NewLive()
			opts.RecordTo = v.live
		}
		sim, err := frameworktest.New(newGame(), opts)
		if err != nil {
			b.Fatal(err)
		}
		v.sim = sim
		sim.Fakes.Renderer.Discard = true
		tapAtRandom(sim, 46, 2, time.Hour)
		v.followed = make(chan error, 1)
		if v.follow {
			v.live.Watch(sim.Runtime.Stats)
			go func() { v.followed <- framework.InspectLive(newGame(), v.live, inspect.Options{}) }()
		}
		if err := sim.Step(120); err != nil {
			b.Fatal(err)
		}
		if v.page {
			h, err := inspect.NewLiveHandler(v.live, inspect.ServerOptions{Name: "breakout"})
			if err != nil {
				b.Fatal(err)
			}
			v.gate = newGate(h)
			v.gate.set(true) // open while the page loads
			if err := chromedp.Do(ctx, chromedp.Navigate(browsertest.Serve(b, v.gate))); err != nil {
				b.Fatal(err)
			}
			waitReady(b, ctx)
			v.gate.set(false)
		}
	}
	// The game's thread: its CPU time is the tick's own work.
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	load := loadAvg1()
	const turn = 120
	const step = time.Second / 120
	b.ResetTimer()
	for round, left := 0, b.N; left > 0; round, left = round+1, left-turn {
		for k := range vs {
			v := vs[(k+round)%len(vs)]
			if v.gate != nil {
				v.gate.set(true)
			}
			start := time.Now()
			for i := range min(turn, left) {
				t0, c0 := time.Now(), threadCPU()
				if err := v.sim.Step(1); err != nil {
					b.Fatal(err)
				}
				v.wall += time.Since(t0)
				v.cpu += threadCPU() - c0
				// The game's rate: the next tick is due a step after this one.
				if wait := time.Until(start.Add(time.Duration(i+1) * step)); wait > 0 {
					time.Sleep(wait)
				}
			}
			if v.gate != nil {
				v.gate.set(false)
			}
		}
	}
	b.StopTimer()
	loadAfter := loadAvg1()
	for _, v := range vs {
		per, cpu := float64(v.wall)/float64(b.N), float64(v.cpu)/float64(b.N)
		b.ReportMetric(per, v.name+"-ns/tick")
		b.ReportMetric(cpu, v.name+"-cpu-ns/tick")
		if v != vs[0] {
			b.ReportMetric(per/(float64(vs[0].wall)/float64(b.N)), v.name+"-x-none")
			b.ReportMetric(cpu/(float64(vs[0].cpu)/float64(b.N)), v.name+"-cpu-x-none")
		}
		if v.gate != nil {
			b.ReportMetric(float64(v.gate.stop()), v.name+"-requests")
		}
		if err := v.sim.Close(); err != nil {
			b.Fatal(err)
		}
		if v.follow {
			v.live.Close()
			if err := <-v.followed; err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(load, "load1-before")
	b.ReportMetric(loadAfter, "load1-after")
	b.ReportMetric(0, "ns/op") // the figures are per variant
}

// gate holds a page's requests while its game is not taking its turn.
type gate struct {
	h        http.Handler
	mu       sync.Mutex
	cond     *sync.Cond
	open     bool
	stopped  bool
	requests int
}

func newGate(h http.Handler) *gate {
	g := &gate{h: h}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	for !g.open && !g.stopped {
		g.cond.Wait()
	}
	g.requests++
	g.mu.Unlock()
	g.h.ServeHTTP(w, r)
}

func (g *gate) set(open bool) {
	g.mu.Lock()
	g.open = open
	g.cond.Broadcast()
	g.mu.Unlock()
}

// stop lets every request through from now on and returns how many came.
func (g *gate) stop() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopped = true
	g.cond.Broadcast()
	return g.requests
}

// waitReady waits for the inspector's page to have started, giving up
// when it makes no progress for a minute.
func waitReady(tb testing.TB, ctx context.Context) {
	tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("Boolean(globalThis.inspector && inspector.ready && !inspector.busy)"))
		if err != nil {
			tb.Fatal(err)
		}
		if ok {
			return
		}
		_, _ = chromedp.Run(ctx, chromedp.Poll[bool]("Boolean(globalThis.inspector && inspector.ready)", chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Second)))
	}
	tb.Fatal("the inspector's page did not start in a minute")
}

// loadAvg1 is the machine's load average over the last minute
// (/proc/loadavg), or -1 where there is none.
func loadAvg1() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f, err := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	if err != nil {
		return -1
	}
	return f
}
