package render2d_test

import (
	"sync"
	"testing"

	"github.com/metronome-go/metronome/render2d"
)

// op is one step of a slot scenario: the simulation begins and publishes
// (or discards) a frame, or the platform acquires.
type op struct {
	kind      string // "prepare", "discard", "acquire", "recycleAll"
	wantBegin bool   // prepare/discard: Begin's result
	wantSeq   uint64 // acquire: Sequence of the returned frame, 0 for nil
	wantFresh bool   // acquire
}

func TestSlotsScenarios(t *testing.T) {
	tests := []struct {
		name      string
		mode      render2d.SlotMode
		ops       []op
		wantStats render2d.SlotStats
	}{
		{
			name: "sequential prepare render prepare render",
			mode: render2d.Sequential,
			ops: []op{
				{kind: "acquire", wantSeq: 0},
				{kind: "prepare", wantBegin: true},
				{kind: "acquire", wantSeq: 1, wantFresh: true},
				{kind: "acquire", wantSeq: 1},
				{kind: "prepare", wantBegin: true},
				{kind: "acquire", wantSeq: 2, wantFresh: true},
			},
			wantStats: render2d.SlotStats{Published: 2, Claimed: 2, Recycled: 1},
		},
		{
			name: "concurrent newest complete frame wins",
			mode: render2d.Concurrent,
			ops: []op{
				{kind: "prepare", wantBegin: true}, // 1
				{kind: "prepare", wantBegin: true}, // 2 supersedes 1
				{kind: "prepare", wantBegin: true}, // 3 supersedes 2: uses the third slot
				{kind: "prepare", wantBegin: false},
				{kind: "acquire", wantSeq: 3, wantFresh: true},
				{kind: "acquire", wantSeq: 3},
				{kind: "prepare", wantBegin: true}, // 4
				{kind: "acquire", wantSeq: 4, wantFresh: true},
			},
			wantStats: render2d.SlotStats{Published: 4, Skipped: 1, Superseded: 2, Claimed: 2, Recycled: 3},
		},
		{
			name: "concurrent simulation skips until the platform recycles",
			mode: render2d.Concurrent,
			ops: []op{
				{kind: "prepare", wantBegin: true}, // 1
				{kind: "acquire", wantSeq: 1, wantFresh: true},
				{kind: "prepare", wantBegin: true},  // 2 waits
				{kind: "prepare", wantBegin: true},  // 3 supersedes 2, which is stale until acquire
				{kind: "prepare", wantBegin: false}, // held 1, stale 2, complete 3
				{kind: "acquire", wantSeq: 3, wantFresh: true},
				{kind: "prepare", wantBegin: true},
			},
			wantStats: render2d.SlotStats{Published: 4, Skipped: 1, Superseded: 1, Claimed: 2, Recycled: 2},
		},
		{
			name: "discarded frame is recycled, not shown",
			mode: render2d.Concurrent,
			ops: []op{
				{kind: "prepare", wantBegin: true},
				{kind: "discard", wantBegin: true},
				{kind: "acquire", wantSeq: 1, wantFresh: true},
				{kind: "recycleAll"},
				{kind: "acquire", wantSeq: 0},
			},
			wantStats: render2d.SlotStats{Published: 1, Claimed: 1, Recycled: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := render2d.NewSlots(tt.mode, render2d.SlotOptions{})
			for i, o := range tt.ops {
				switch o.kind {
				case "prepare", "discard":
					w, ok := s.Begin()
					if ok != o.wantBegin {
						t.Fatalf("op %d: Begin ok = %v, want %v", i, ok, o.wantBegin)
					}
					if !ok {
						continue
					}
					if n := w.Frame().PacketCount(); n != 0 {
						t.Fatalf("op %d: lent frame holds %d packets, want a recycled empty frame", i, n)
					}
					w.BeginPass(render2d.PassDesc{}).Draw(render2d.DrawPacket2D{Layer: int16(i)})
					if o.kind == "discard" {
						s.Discard(w)
					} else {
						s.Publish(w)
					}
				case "acquire":
					f, fresh := s.Acquire()
					var seq uint64
					if f != nil {
						seq = f.Sequence
					}
					if seq != o.wantSeq || fresh != o.wantFresh {
						t.Fatalf("op %d: Acquire = frame %d fresh %v, want frame %d fresh %v", i, seq, fresh, o.wantSeq, o.wantFresh)
					}
				case "recycleAll":
					s.RecycleAll()
				}
			}
			if got := s.Stats(); got != tt.wantStats {
				t.Errorf("Stats = %+v, want %+v", got, tt.wantStats)
			}
		})
	}
}

func TestSlotsReleaseHookSeesFrameBeforeClearing(t *testing.T) {
	var released []int16
	s := render2d.NewSlots(render2d.Concurrent, render2d.SlotOptions{Release: func(f *render2d.Frame) {
		for _, p := range f.Passes {
			for _, q := range p.Packets {
				released = append(released, q.Layer)
			}
		}
	}})
	for i := range 3 {
		w, ok := s.Begin()
		if !ok {
			t.Fatalf("Begin %d failed", i)
		}
		w.BeginPass(render2d.PassDesc{}).Draw(render2d.DrawPacket2D{Layer: int16(i + 1)})
		s.Publish(w)
	}
	if len(released) != 0 {
		t.Fatalf("release hook ran on the simulation side: %v", released)
	}
	s.Acquire() // recycles superseded frames 1 and 2, holds 3
	if got, want := len(released), 2; got != want {
		t.Fatalf("after Acquire released %v, want frames 1 and 2", released)
	}
	s.RecycleAll()
	if got, want := released, []int16{1, 2, 3}; len(got) != 3 || got[2] != want[2] || got[0]+got[1] != 3 {
		t.Errorf("released %v, want %v in any order of the first two", got, want)
	}
}

func TestSlotsPanics(t *testing.T) {
	tests := []struct {
		name string
		fn   func()
	}{
		{"bad mode", func() { render2d.NewSlots(7, render2d.SlotOptions{}) }},
		{"begin twice", func() {
			s := render2d.NewSlots(render2d.Concurrent, render2d.SlotOptions{})
			s.Begin()
			s.Begin()
		}},
		{"publish twice", func() {
			s := render2d.NewSlots(render2d.Concurrent, render2d.SlotOptions{})
			w, _ := s.Begin()
			s.Publish(w)
			s.Publish(w)
		}},
		{"foreign writer", func() {
			s := render2d.NewSlots(render2d.Concurrent, render2d.SlotOptions{})
			s.Publish(render2d.NewFrameWriter(&render2d.Frame{}))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", tt.name)
				}
			}()
			tt.fn()
		})
	}
}

// TestSlotsConcurrentNoTornFrames runs a simulation goroutine against a
// platform loop. Every packet of frame n carries n; the platform checks
// that each frame it claims is whole, newer than the last, and never
// changes while held. The release hook checks it runs on the platform side.
func TestSlotsConcurrentNoTornFrames(t *testing.T) {
	const frames = 2000
	onPlatform := false
	s := render2d.NewSlots(render2d.Concurrent, render2d.SlotOptions{Release: func(f *render2d.Frame) {
		if !onPlatform {
			t.Error("release hook ran outside Acquire/RecycleAll")
		}
	}})
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(done)
		for n := uint64(1); n <= frames; n++ {
			w, ok := s.Begin()
			if !ok {
				continue
			}
			pw := w.BeginPass(render2d.PassDesc{})
			for range 1 + n%7 {
				pw.Draw(render2d.DrawPacket2D{Params: [4]float32{float32(n)}})
			}
			pw = w.BeginPass(render2d.PassDesc{})
			pw.Draw(render2d.DrawPacket2D{Params: [4]float32{float32(n)}})
			s.Publish(w)
		}
	}()
	var last uint64
	var lastTag float32
	check := func(f *render2d.Frame) {
		tag := f.Passes[0].Packets[0].Params[0]
		for _, p := range f.Passes {
			for _, q := range p.Packets {
				if q.Params[0] != tag {
					t.Fatalf("frame %d is torn: packets from %v and %v", f.Sequence, tag, q.Params[0])
				}
			}
		}
		if want := 1 + int(tag)%7 + 1; f.PacketCount() != want {
			t.Fatalf("frame tagged %v has %d packets, want %d", tag, f.PacketCount(), want)
		}
	}
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		onPlatform = true
		f, fresh := s.Acquire()
		onPlatform = false
		if f == nil {
			continue
		}
		check(f)
		if fresh {
			if f.Sequence <= last {
				t.Fatalf("claimed frame %d after %d", f.Sequence, last)
			}
			last, lastTag = f.Sequence, f.Passes[0].Packets[0].Params[0]
		} else if f.Sequence != last || f.Passes[0].Packets[0].Params[0] != lastTag {
			t.Fatalf("held frame changed from %d to %d", last, f.Sequence)
		}
	}
	wg.Wait()
	onPlatform = true
	f, _ := s.Acquire()
	s.RecycleAll()
	st := s.Stats()
	if f == nil || f.PacketCount() != 0 {
		t.Errorf("RecycleAll left the held frame with packets")
	}
	if st.Published+st.Skipped != frames {
		t.Errorf("published %d + skipped %d = %d, want %d", st.Published, st.Skipped, st.Published+st.Skipped, frames)
	}
	if st.Claimed+st.Superseded != st.Published {
		t.Errorf("claimed %d + superseded %d != published %d", st.Claimed, st.Superseded, st.Published)
	}
}
