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
// with random keys, in one run: without the inspector (none), recording
// into memory as --inspect does with no follower (memory), with the
// follower attached and no page open (nopage: the follower is lazy and
// replays nothing), with a page polling at its own pace (paced: the
// session, the new ticks' timeline and the entities at the live end,
// twice a second of game time, as the page's followLive does) and with
// a page polling as fast as it can (flatout: every request a seek and an
// entity list). Each variant after none reports its ns/op over none's
// in the same run (x-none).
//
//	go test ./examples/breakout -run '^$' -bench InspectLive -count 3
func BenchmarkInspectLive(b *testing.B) {
	var none float64
	for _, c := range []struct {
		name                  string
		record, follow, paced bool
		flat                  bool
	}{{"none", false, false, false, false}, {"memory", true, false, false, false}, {"nopage", true, true, false, false},
		{"paced", true, true, true, false}, {"flatout", true, true, false, true}} {
		b.Run(c.name, func(b *testing.B) {
			opts := frameworktest.Options{Sets: small}
			var live *inspect.Live
			if c.record {
				live = inspect.NewLive()
				opts.RecordTo = live
			}
			sim, err := frameworktest.New(newGame(), opts)
			if err != nil {
				b.Fatal(err)
			}
			sim.Fakes.Renderer.Discard = true
			r := rand.New(rand.NewPCG(45, 2))
			keys := []input.Button{input.KeyLeft, input.KeyD, input.KeySpace}
			for at := time.Duration(0); at < time.Hour; at += time.Duration(100+r.IntN(900)) * time.Millisecond {
				sim.Input.Tap(sim.At(at), keys[r.IntN(len(keys))], time.Duration(20+r.IntN(600))*time.Millisecond)
			}
			followed := make(chan error, 1)
			if c.follow {
				go func() { followed <- framework.InspectLive(newGame(), live, inspect.Options{}) }()
			}
			// The page runs on its own goroutine; a paced one is told
			// when half a second of game time went by.
			stop, polled, due := make(chan struct{}), make(chan int, 1), make(chan struct{}, 1)
			if c.paced || c.flat {
				h, err := inspect.NewLiveHandler(live, inspect.ServerOptions{})
				if err != nil {
					b.Fatal(err)
				}
				go func() { polled <- page(h, c.paced, due, stop) }()
			}
			if err := sim.Step(120); err != nil {
				b.Fatal(err)
			}
			tick := max(time.Duration(sim.Clock.Now()-sim.At(0))/120, 1)
			every := max(int(time.Second/2/tick), 1) // the page's poll, in ticks
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if err := sim.Step(1); err != nil {
					b.Fatal(err)
				}
				if c.paced && i%every == 0 {
					select {
					case due <- struct{}{}:
					default: // the page is still busy with the last poll
					}
				}
			}
			b.StopTimer()
			per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			if c.name == "none" {
				none = per
			} else if none > 0 {
				b.ReportMetric(per/none, "x-none")
			}
			close(stop)
			if c.paced || c.flat {
				b.ReportMetric(float64(<-polled), "page-polls")
			}
			if err := sim.Close(); err != nil {
				b.Fatal(err)
			}
			if c.follow {
				live.Close()
				if err := <-followed; err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// page polls h as the inspector's page does while a live game plays
// (the session, the new ticks' timeline, the entities at the live end)
// each time due says, or as fast as it can when not paced, until stop;
// it returns the number of polls.
func page(h http.Handler, paced bool, due, stop chan struct{}) int {
	get := func(p string) int {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		return rec.Code
	}
	n, seen := 0, 0
	for ; n < 10_000_000; n++ {
		if paced {
			select {
			case <-stop:
				return n
			case <-due:
			}
		} else {
			select {
			case <-stop:
				return n
			default:
			}
		}
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
