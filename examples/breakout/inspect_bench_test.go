//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
)

// BenchmarkInspectSeek records 36,000 ticks of Breakout (five minutes at
// its 120 Hz; ten at 60 Hz) played by random keys, opens it in the inspector's seek engine
// and seeks to 500 random ticks: the median and worst seek (and the worst
// seek's CPU time, without its waits for a core), and the keyframes' and
// the tick log's memory against the recording's size.
//
//	go test ./examples/breakout -run '^$' -bench InspectSeek -benchtime 1x
func BenchmarkInspectSeek(b *testing.B) {
	const ticks = 36000
	path := filepath.Join(b.TempDir(), "ten-minutes.rec")
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Record: path, Sets: small})
	if err != nil {
		b.Fatal(err)
	}
	// The taps and then the seeks draw on one stream.
	r := rand.New(rand.NewPCG(45, 1))
	keys := []input.Button{input.KeyLeft, input.KeyD, input.KeySpace}
	for at := time.Duration(0); at < ticks*time.Second/60; at += time.Duration(100+r.IntN(900)) * time.Millisecond {
		sim.Input.Tap(sim.At(at), keys[r.IntN(len(keys))], time.Duration(20+r.IntN(600))*time.Millisecond)
	}
	if err := sim.RunTicks(ticks); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		rep, err := framework.InspectReplay(newGame(), path, inspect.Options{})
		if err != nil {
			b.Fatal(err)
		}
		seeks, cpu := make([]time.Duration, 500), make([]time.Duration, 500)
		goruntime.LockOSThread()
		for i := range seeks {
			c := threadCPU()
			if err := rep.Seek(uint64(r.IntN(rep.Ticks()))); err != nil {
				b.Fatal(err)
			}
			seeks[i], cpu[i] = rep.LastSeek().Elapsed, threadCPU()-c
		}
		goruntime.UnlockOSThread()
		slices.Sort(seeks)
		slices.Sort(cpu)
		b.ReportMetric(float64(cpu[len(cpu)-1].Microseconds())/1000, "worst-seek-cpu-ms")
		b.ReportMetric(float64(rep.KeyframeEvery()), "keyframe-every")
		m := rep.Memory()
		b.ReportMetric(float64(rep.Ticks()), "ticks")
		b.ReportMetric(float64(seeks[len(seeks)/2].Microseconds())/1000, "median-seek-ms")
		b.ReportMetric(float64(seeks[len(seeks)-1].Microseconds())/1000, "worst-seek-ms")
		b.ReportMetric(float64(m.Keyframes), "keyframes")
		b.ReportMetric(float64(m.KeyframeBytes)/1024, "keyframe-KiB")
		b.ReportMetric(float64(m.TickBytes)/1024, "kept-ticks-KiB")
		b.ReportMetric(float64(st.Size())/1024, "recording-KiB")
	}
}

// BenchmarkInspectLive is the tick cost of Breakout playing flat out
// with random keys, five ways at once: without the inspector (none),
// recording into memory as --inspect does with no follower (memory),
// with the follower attached and no page open (nopage: the follower is
// lazy and replays nothing), with a page polling at its own pace (paced:
// the session, the new ticks' timeline and the entities at the live end,
// twice a second of game time, as the page's followLive does) and with a
// page polling as fast as it can (flatout: every request a seek and an
// entity list). On a shared machine the time a tick takes swings by half
// from one second to the next, so the five games take turns, 200 ticks
// each, in an order that rotates, and each reports its ns per tick (b.N ticks each) and its ratio
// to none's over the same turns (x-none).
//
//	go test ./examples/breakout -run '^$' -bench InspectLive -count 3
func BenchmarkInspectLive(b *testing.B) {
	type variant struct {
		name                  string
		record, follow, paced bool
		flat                  bool
		sim                   *frameworktest.Sim
		live                  *inspect.Live
		followed              chan error
		polled                chan int
		due, resume           chan struct{}
		active                atomic.Bool
		elapsed               time.Duration
		done                  int
	}
	vs := []*variant{{name: "none"}, {name: "memory", record: true}, {name: "nopage", record: true, follow: true},
		{name: "paced", record: true, follow: true, paced: true}, {name: "flatout", record: true, follow: true, flat: true}}
	stop := make(chan struct{})
	every := 1
	for _, v := range vs {
		opts := frameworktest.Options{Sets: small}
		if v.record {
			v.live = inspect.NewLive()
			opts.RecordTo = v.live
		}
		sim, err := frameworktest.New(newGame(), opts)
		if err != nil {
			b.Fatal(err)
		}
		v.sim = sim
		sim.Fakes.Renderer.Discard = true
		tapAtRandom(sim, 45, 2, time.Hour)
		v.followed = make(chan error, 1)
		if v.follow {
			go func() { v.followed <- framework.InspectLive(newGame(), v.live, inspect.Options{}) }()
		}
		v.polled, v.due, v.resume = make(chan int, 1), make(chan struct{}, 1), make(chan struct{}, 1)
		if v.paced || v.flat {
			h, err := inspect.NewLiveHandler(v.live, inspect.ServerOptions{})
			if err != nil {
				b.Fatal(err)
			}
			// The page runs on its own goroutine, and only in its game's
			// turns: a paced one when half a second of game time went
			// by, a flat-out one all the time.
			go func() { v.polled <- page(h, v.paced, &v.active, v.due, v.resume, stop) }()
		}
		if err := sim.Step(120); err != nil {
			b.Fatal(err)
		}
		tick := max(time.Duration(sim.Clock.Now()-sim.At(0))/120, 1)
		every = max(int(time.Second/2/tick), 1) // the page's poll, in ticks
	}
	b.ReportAllocs()
	b.ResetTimer()
	const turn = 200
	for round, left := 0, b.N; left > 0; round, left = round+1, left-turn {
		for k := range vs {
			v := vs[(k+round)%len(vs)] // each first in turn: no order favours one
			v.active.Store(true)
			select {
			case v.resume <- struct{}{}:
			default:
			}
			start := time.Now()
			for range min(turn, left) {
				if err := v.sim.Step(1); err != nil {
					b.Fatal(err)
				}
				if v.done++; v.paced && v.done%every == 0 {
					select {
					case v.due <- struct{}{}:
					default: // the page is still busy with its last poll
					}
				}
			}
			v.elapsed += time.Since(start)
			v.active.Store(false)
		}
	}
	b.StopTimer()
	close(stop)
	none := float64(vs[0].elapsed) / float64(b.N)
	for _, v := range vs {
		per := float64(v.elapsed) / float64(b.N)
		b.ReportMetric(per, v.name+"-ns/tick")
		if v != vs[0] {
			b.ReportMetric(per/none, v.name+"-x-none")
		}
		if v.paced || v.flat {
			b.ReportMetric(float64(<-v.polled), v.name+"-polls")
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
	b.ReportMetric(0, "ns/op") // the figures are per variant
}

// page polls h as the inspector's page does while a live game plays
// (the session, the new ticks' timeline, the entities at the live end)
// each time due says, or as fast as it can when not paced, while active
// (resume says it may be again), until stop; it returns the number of
// polls.
func page(h http.Handler, paced bool, active *atomic.Bool, due, resume, stop chan struct{}) int {
	get := func(p string) int {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		return rec.Code
	}
	n, seen := 0, 0
	for n < 10_000_000 {
		switch {
		case paced:
			select {
			case <-stop:
				return n
			case <-due:
			}
		case !active.Load():
			select {
			case <-stop:
				return n
			case <-resume:
				continue
			}
		default:
			select {
			case <-stop:
				return n
			default:
			}
		}
		n++
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/session", nil))
		var s struct{ Ticks int }
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &s) != nil || s.Ticks == 0 {
			continue // the follower has run no tick yet
		}
		if paced {
			get(fmt.Sprintf("/api/timeline?from=%d&to=%d", seen, s.Ticks))
			get(fmt.Sprintf("/api/entities?tick=%d", s.Ticks-1))
			seen = s.Ticks
		} else {
			get(fmt.Sprintf("/api/entities?tick=%d", n*7919%s.Ticks))
		}
	}
	return n
}

// BenchmarkInspectLiveCatchUp is what a page opened late waits for: ten
// minutes of Breakout (72,000 ticks at its 120 Hz) recorded into memory
// with the follower attached and no page open, so that it replayed
// nothing; then the follower catches up (here because the game ended,
// which it does whether a page asks or not; a page's first request
// starts the same run) on its background worker, with keyframes.
//
//	go test ./examples/breakout -run '^$' -bench InspectLiveCatchUp -benchtime 1x
func BenchmarkInspectLiveCatchUp(b *testing.B) {
	const ticks = 72000
	for range b.N {
		b.StopTimer()
		live := inspect.NewLive()
		sim, err := frameworktest.New(newGame(), frameworktest.Options{Sets: small, RecordTo: live})
		if err != nil {
			b.Fatal(err)
		}
		sim.Fakes.Renderer.Discard = true
		tapAtRandom(sim, 45, 3, ticks*time.Second/120)
		followed := make(chan error, 1)
		go func() { followed <- framework.InspectLive(newGame(), live, inspect.Options{}) }()
		if err := sim.RunTicks(ticks); err != nil {
			b.Fatal(err)
		}
		if err := sim.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		live.Close()
		if err := <-followed; err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		b.ReportMetric(took.Seconds(), "catch-up-s")
		b.ReportMetric(float64(ticks)/took.Seconds(), "ticks/s")
		b.ReportMetric(float64(live.Recorded())/1024, "recording-KiB")
	}
}
