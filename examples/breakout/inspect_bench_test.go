//go:build !js

package main

import (
	"fmt"
	"math/rand/v2"
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

// BenchmarkInspectLive is the tick cost of Breakout playing with random
// keys, in one run: without the inspector (off), with --inspect attached
// and no page open (the game records into memory, the follower replays
// it beside the game: inspect), and with a page polling as fast as it
// can, every request a seek and an entity list (page).
//
//	go test ./examples/breakout -run '^$' -bench InspectLive -count 5
func BenchmarkInspectLive(b *testing.B) {
	for _, c := range []struct {
		name          string
		inspect, page bool
		follow        bool
	}{{"off", false, false, false}, {"record", true, false, false}, {"inspect", true, false, true}, {"page", true, true, true}} {
		b.Run(c.name, func(b *testing.B) {
			opts := frameworktest.Options{Sets: small}
			var live *inspect.Live
			if c.inspect {
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
			stop, polled := make(chan struct{}), make(chan int, 1)
			if c.follow {
				go func() { followed <- framework.InspectLive(newGame(), live, inspect.Options{}) }()
			}
			if c.page {
				h, err := inspect.NewLiveHandler(live, inspect.ServerOptions{})
				if err != nil {
					b.Fatal(err)
				}
				go func() {
					n := 0
					for ; n < 10_000_000; n++ {
						select {
						case <-stop:
							polled <- n
							return
						default:
						}
						for _, p := range []string{"/api/session", fmt.Sprintf("/api/entities?tick=%d", n*7919%120)} {
							h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", p, nil))
						}
					}
					polled <- n
				}()
			}
			if err := sim.Step(120); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if err := sim.Step(1); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			close(stop)
			if c.page {
				b.ReportMetric(float64(<-polled), "page-requests")
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
