package input_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/timing"
)

func TestRecorderWindow(t *testing.T) {
	var rec input.Recorder
	var snap input.Snapshot
	nan := float32(math.NaN())
	rec.WindowSize(0, 640, 360)
	rec.FramebufferSize(0, 1280, 720)
	rec.ContentScale(1*ms, 2, 2)
	rec.ContentScale(1*ms, 2, 2) // unchanged: nothing
	rec.ContentScale(1*ms, nan, 1)
	rec.ContentScale(1*ms, 1, nan)
	rec.WindowHidden(2*ms, true)
	rec.WindowHidden(2*ms, true) // unchanged
	rec.WindowHidden(3*ms, false)
	rec.WindowMinimized(4*ms, true)
	rec.WindowMinimized(4*ms, true)
	rec.WindowFullscreen(5*ms, true)
	rec.WindowFullscreen(5*ms, true)
	rec.Flush(6*ms, &snap)
	checkRecords(t, "window", snap.Records, []string{
		"0s window-size 640x360", "0s framebuffer-size 1280x720", "1ms content-scale 2,2",
		"2ms hidden true", "3ms hidden false", "4ms minimized true", "5ms fullscreen true",
	})
	if rec.Ignored() != 2 {
		t.Errorf("Ignored = %d, want 2 (two NaN scales)", rec.Ignored())
	}
	want := input.Window{
		Size: input.Size{Width: 640, Height: 360}, Framebuffer: input.Size{Width: 1280, Height: 720},
		Scale: input.Scale{X: 2, Y: 2}, Minimized: true, Fullscreen: true,
	}
	if snap.State.Window != want {
		t.Errorf("window %+v, want %+v", snap.State.Window, want)
	}

	// Init describes every window fact that differs, with synthetic records.
	var fresh input.Recorder
	init := input.State{Window: input.Window{
		Size: input.Size{Width: 10, Height: 20}, Scale: input.Scale{X: 1.5, Y: 1.25},
		Focused: true, Hidden: true, Minimized: true, Fullscreen: true,
	}}
	fresh.Init(1*ms, init)
	fresh.Flush(1*ms, &snap)
	checkRecords(t, "init", snap.Records, []string{
		"1ms window-size 10x20 (synthetic)", "1ms content-scale 1.5,1.25 (synthetic)", "1ms focus true (synthetic)",
		"1ms hidden true (synthetic)", "1ms minimized true (synthetic)", "1ms fullscreen true (synthetic)",
	})
	if snap.State != init {
		t.Errorf("state after Init %+v, want %+v", snap.State, init)
	}
}

func TestWindowVisible(t *testing.T) {
	fb := input.Size{Width: 4, Height: 3}
	tests := []struct {
		name string
		w    input.Window
		want bool
	}{
		{"shown", input.Window{Framebuffer: fb}, true},
		{"shown unfocused fullscreen", input.Window{Framebuffer: fb, Fullscreen: true}, true},
		{"hidden", input.Window{Framebuffer: fb, Hidden: true}, false},
		{"minimised", input.Window{Framebuffer: fb, Minimized: true}, false},
		{"no width", input.Window{Framebuffer: input.Size{Height: 3}}, false},
		{"no height", input.Window{Framebuffer: input.Size{Width: 4}}, false},
		{"zero", input.Window{}, false},
	}
	for _, tc := range tests {
		if got := tc.w.Visible(); got != tc.want {
			t.Errorf("%s: Visible() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRecordKindNames(t *testing.T) {
	want := map[input.RecordKind]string{
		input.RecordContentScale: "content-scale", input.RecordHidden: "hidden",
		input.RecordMinimized: "minimized", input.RecordFullscreen: "fullscreen",
		input.RecordFullscreen + 1: "RecordKind(15)",
	}
	for k, name := range want {
		if got := k.String(); got != name {
			t.Errorf("RecordKind(%d).String() = %q, want %q", uint8(k), got, name)
		}
	}
}

// syncStep is one poll of TestWindowSync: what the source records (with
// the recorder), and the window the display sampled.
type syncStep struct {
	source func(r *input.Recorder, at timing.Instant)
	sample input.Window
	want   []string // the snapshot's records
}

func TestWindowSync(t *testing.T) {
	fb := input.Size{Width: 640, Height: 360}
	shown := input.Window{Size: fb, Framebuffer: fb, Focused: true}
	scaled := shown
	scaled.Scale = input.Scale{X: 2, Y: 2}
	big := scaled
	big.Size, big.Framebuffer = input.Size{Width: 800, Height: 600}, input.Size{Width: 1600, Height: 1200}
	away := big
	away.Focused, away.Minimized = false, true
	full := big
	full.Fullscreen = true
	nanScale := full
	nanScale.Scale = input.Scale{X: float32(math.NaN()), Y: 1}
	none := func(*input.Recorder, timing.Instant) {}
	steps := []syncStep{
		{none, shown, []string{"0s window-size 640x360 (synthetic)", "0s framebuffer-size 640x360 (synthetic)", "0s focus true (synthetic)"}},
		// The source saw the same facts: nothing added.
		{func(r *input.Recorder, at timing.Instant) { r.WindowSize(at, 640, 360); r.Focus(at, true) }, shown,
			[]string{"1ms window-size 640x360", "1ms focus true"}},
		{none, scaled, []string{"2ms content-scale 2,2 (synthetic)"}},
		// The display saw a resize before the source: synthetic records
		// now; the source's own records later change nothing.
		{none, big, []string{"3ms window-size 800x600 (synthetic)", "3ms framebuffer-size 1600x1200 (synthetic)"}},
		{func(r *input.Recorder, at timing.Instant) { r.WindowSize(at, 800, 600) }, big, []string{"4ms window-size 800x600"}},
		{none, big, nil},
		// The source recorded a size the display no longer reports: the
		// sample wins, after the source's record.
		{func(r *input.Recorder, at timing.Instant) { r.WindowSize(at, 10, 10) }, big,
			[]string{"6ms window-size 10x10", "6ms window-size 800x600 (synthetic)"}},
		{none, away, []string{"7ms focus false (synthetic)", "7ms minimized true (synthetic)"}},
		{none, full, []string{"8ms focus true (synthetic)", "8ms minimized false (synthetic)", "8ms fullscreen true (synthetic)"}},
		// A NaN scale is no scale: the previous one stays.
		{none, nanScale, nil},
	}
	var (
		rec  input.Recorder
		ws   input.WindowSync
		snap input.Snapshot
		prev input.State
	)
	for i, st := range steps {
		at := timing.Instant(i) * ms
		st.source(&rec, at)
		rec.Flush(at, &snap)
		ws.Apply(&snap, st.sample)
		checkRecords(t, "poll "+string(rune('0'+i)), snap.Records, st.want)
		chained := prev
		for j := range snap.Records {
			chained.Apply(&snap.Records[j])
		}
		if chained != snap.State {
			t.Errorf("poll %d: State %+v, want the previous State with the records applied: %+v", i, snap.State, chained)
		}
		want := st.sample
		if s := want.Scale; s.X != s.X {
			want.Scale = prev.Window.Scale
		}
		if snap.State.Window != want {
			t.Errorf("poll %d: window %+v, want the sample %+v", i, snap.State.Window, want)
		}
		prev = snap.State
	}
}

// FuzzWindowSync: whatever a source records of the window and whatever the
// display samples, synced snapshots chain and end at the sample.
func FuzzWindowSync(f *testing.F) {
	f.Add(uint64(1), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(uint64(7), []byte{255, 128, 64, 32, 16, 8, 4, 2, 1})
	f.Fuzz(func(t *testing.T, seed uint64, ops []byte) {
		rng := rand.New(rand.NewPCG(seed, seed>>1))
		var (
			rec    input.Recorder
			ws     input.WindowSync
			snap   input.Snapshot
			prev   input.State
			sample input.Window
			now    timing.Instant
		)
		size := func() (int, int) { return rng.IntN(4) * 100, rng.IntN(3) * 100 }
		for i, op := range ops {
			now += timing.Instant(op%4) * ms
			// The source records some window facts, the display samples
			// others, and they may disagree.
			switch op % 9 {
			case 0:
				w, h := size()
				rec.WindowSize(now, w, h)
			case 1:
				w, h := size()
				rec.FramebufferSize(now, w, h)
			case 2:
				rec.ContentScale(now, float32(rng.IntN(3)), float32(rng.IntN(3)))
			case 3:
				rec.Focus(now, rng.IntN(2) == 0)
			case 4:
				rec.WindowMinimized(now, rng.IntN(2) == 0)
			case 5:
				sample.Size.Width, sample.Size.Height = size()
			case 6:
				sample.Scale = input.Scale{X: float32(rng.IntN(3)), Y: float32(rng.IntN(3))}
				if rng.IntN(4) == 0 {
					sample.Scale.X = float32(math.NaN())
				}
			case 7:
				sample.Focused, sample.Hidden = rng.IntN(2) == 0, rng.IntN(2) == 0
			case 8:
				sample.Minimized, sample.Fullscreen = rng.IntN(2) == 0, rng.IntN(2) == 0
			}
			if op&16 == 0 {
				continue // no poll yet
			}
			rec.Flush(now, &snap)
			// The window as the source's records leave it: what a NaN
			// sampled scale keeps.
			from := prev.Window
			for j := range snap.Records {
				st := input.State{Window: from}
				st.Apply(&snap.Records[j])
				from = st.Window
			}
			ws.Apply(&snap, sample)
			st := prev
			for j := range snap.Records {
				r := &snap.Records[j]
				if r.Time > snap.Time {
					t.Fatalf("op %d: record %v after the snapshot's time %v", i, r, snap.Time)
				}
				st.Apply(r)
			}
			if st != snap.State {
				t.Fatalf("op %d: State %+v, want the records applied: %+v", i, snap.State, st)
			}
			want := sample
			if s := want.Scale; s.X != s.X || s.Y != s.Y {
				want.Scale = from.Scale
			}
			if snap.State.Window != want {
				t.Fatalf("op %d: window %+v, want the sample %+v", i, snap.State.Window, want)
			}
			prev = snap.State
		}
	})
}

// Window facts travel through the queue with the input: under timestamped
// delivery each update sees the window as of its own span's records.
func TestQueueWindow(t *testing.T) {
	actions := input.NewActions()
	opts := input.DefaultPollingOptions()
	opts.Delivery = input.Timestamped
	q, err := input.NewQueue(actions, opts)
	if err != nil {
		t.Fatal(err)
	}
	q.Start(0)
	src := inputtest.NewScript()
	src.ContentScale(5*ms, 2, 1.5).WindowFullscreen(25*ms, true).WindowMinimized(45*ms, true).WindowHidden(46*ms, true)
	var snap input.Snapshot
	src.Poll(60*ms, &snap) // one poll after a stall
	q.Push(&snap)
	wants := []input.Window{
		{Scale: input.Scale{X: 2, Y: 1.5}},
		{Scale: input.Scale{X: 2, Y: 1.5}, Fullscreen: true},
		{Scale: input.Scale{X: 2, Y: 1.5}, Fullscreen: true, Minimized: true, Hidden: true},
	}
	var tick input.Tick
	for i, want := range wants {
		start := timing.Instant(i) * 20 * ms
		q.TakeSpan(start, start+20*ms, &tick)
		if got := tick.Window(); got != want {
			t.Errorf("update %d [%v, %v): window %+v, want %+v", i, start, start+20*ms, got, want)
		}
	}
}
