package recording_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

func TestRoundTripSession(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    sessionOptions
	}{
		{"idle backlog", sessionOptions{seed: 1, ticks: 5000, every: 60}},
		{"input backlog", sessionOptions{seed: 2, ticks: 5000, input: true, every: 60}},
		{"input timestamped", sessionOptions{seed: 3, ticks: 5000, input: true, timestamped: true, every: 60}},
		{"checkpoint every tick", sessionOptions{seed: 4, ticks: 300, input: true, every: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := makeSession(t, tc.o)
			data := write(t, testHeader, evs, nil)
			r, err := recording.NewReader(bytes.NewReader(data), "test.rec")
			if err != nil {
				t.Fatal(err)
			}
			if p := diff(reflect.ValueOf(r.Header()), reflect.ValueOf(testHeader), "Header"); p != "" {
				t.Error(p)
			}
			got, end, err := readAll(r)
			if err != io.EOF {
				t.Fatalf("after the end marker: got %v, want io.EOF", err)
			}
			if d := diffEvents(got, evs); d != "" {
				t.Fatal(d)
			}
			if end == nil || end.Err() != nil || end.Ticks != uint64(tc.o.ticks) {
				t.Errorf("got end %+v, want a clean end after %d ticks", end, tc.o.ticks)
			}
			// The session covers what the format must carry.
			var stats, dropped, quiet, coarse, steps, suspended bool
			for _, e := range evs {
				if e.tick == nil {
					continue
				}
				u := e.tick.Update
				stats = stats || e.tick.Timing.Acting != 0
				dropped = dropped || u.Dropped != 0
				quiet = quiet || u.Quiet
				coarse = coarse || u.Coarse
				steps = steps || u.Steps > 1
				suspended = suspended || e.tick.Timing.Suspended != 0
			}
			if tc.o.ticks >= 5000 && (!stats || !dropped || !quiet || !coarse || !steps || !suspended) {
				t.Errorf("the session lacks a feature: acting %v dropped %v quiet %v coarse %v merged %v suspended %v",
					stats, dropped, quiet, coarse, steps, suspended)
			}
		})
	}
}

// TestRoundTripEveryField fills every field of ticks with random values,
// the ends of each range included, so a field the format forgot (or one
// added to timing or input later) fails here.
func TestRoundTripEveryField(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var evs []event
	for i := range 3000 {
		evs = append(evs, event{tick: randomTick(rng, rng.IntN(4))})
		if i%7 == 0 {
			cp := &recording.Checkpoint{Tick: rng.Uint64(), Hash: rng.Uint64()}
			for k := range rng.IntN(5) {
				cp.Types = append(cp.Types, recording.TypeHash{Name: typeNames[(i+k)%len(typeNames)],
					Hash: rng.Uint64(), Count: rng.IntN(1 << 30)})
			}
			evs = append(evs, event{cp: cp})
		}
	}
	data := write(t, testHeader, evs, errors.New("update: boom"))
	r, err := recording.NewReader(bytes.NewReader(data), "test.rec")
	if err != nil {
		t.Fatal(err)
	}
	got, end, err := readAll(r)
	if err != io.EOF {
		t.Fatalf("got %v, want io.EOF", err)
	}
	if d := diffEvents(got, evs); d != "" {
		t.Fatal(d)
	}
	if end.Error != "update: boom" || end.Err() == nil || end.Err().Error() != "update: boom" {
		t.Errorf("got outcome %q, want %q", end.Error, "update: boom")
	}
}

// TestFieldsCovered pins the fields of the types a tick carries: a new
// field must be added to the format (and FormatVersion raised) before this
// test is updated.
func TestFieldsCovered(t *testing.T) {
	for _, tc := range []struct {
		typ  reflect.Type
		want int
	}{
		{reflect.TypeFor[timing.Update](), 10},
		{reflect.TypeFor[timing.Stats](), 18},
		{reflect.TypeFor[timing.Ledger](), 13},
		{reflect.TypeFor[input.Record](), 15},
		{reflect.TypeFor[recording.Tick](), 12},
		{reflect.TypeFor[input.Stats](), 9},
		{reflect.TypeFor[recording.Net](), 3},
		{reflect.TypeFor[recording.Pacing](), 6},
		{reflect.TypeFor[recording.ShutdownRequest](), 3},
	} {
		if got := tc.typ.NumField(); got != tc.want {
			t.Errorf("%v has %d fields, the format carries %d", tc.typ, got, tc.want)
		}
	}
	if got := input.RecordFullscreen + 1; !strings.HasPrefix(got.String(), "RecordKind(") {
		t.Errorf("input has a record kind %v after RecordFullscreen, which the format does not carry", got)
	}
	if timing.NumKinds != 3 {
		t.Errorf("timing.NumKinds is %d, the format carries 3 tick counts", timing.NumKinds)
	}
}

func TestOutcome(t *testing.T) {
	long := strings.Repeat("é", recording.MaxErrorLen) // two bytes each
	for _, tc := range []struct {
		name    string
		outcome error
		want    string
	}{
		{"clean", nil, ""},
		{"error", errors.New("phase update: nil map"), "phase update: nil map"},
		{"empty message", errors.New(""), "*errors.errorString with an empty message"},
		{"long", errors.New(long), long[:recording.MaxErrorLen]},
		{"long, odd cut", errors.New("x" + long), "x" + long[:recording.MaxErrorLen-2]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := write(t, recording.Header{}, nil, tc.outcome)
			r, err := recording.NewReader(bytes.NewReader(data), "x.rec")
			if err != nil {
				t.Fatal(err)
			}
			it, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			end, ok := it.(*recording.End)
			if !ok {
				t.Fatalf("got %T, want *recording.End", it)
			}
			if end.Error != tc.want {
				t.Errorf("got outcome of %d bytes, want %d", len(end.Error), len(tc.want))
			}
			if (end.Err() == nil) != (tc.want == "") {
				t.Errorf("Err() = %v for outcome %q", end.Err(), end.Error)
			}
			if _, err := r.Next(); err != io.EOF {
				t.Errorf("after the end: got %v, want io.EOF", err)
			}
		})
	}
}

// TestOutcomes: each way a session ends reads back as written, with the
// header naming the game's main package and title.
func TestOutcomes(t *testing.T) {
	h := testHeader
	h.Package, h.Title = "example.com/game/cmd/asteroids", "Asteroids"
	for _, tc := range []struct {
		o       recording.Outcome
		msg     string
		wantMsg string
		wantErr string
	}{
		{recording.Clean, "ignored", "", ""},
		{recording.Signal, "interrupt", "interrupt", ""},
		{recording.Signal, "", "stopped by a signal", ""},
		{recording.Failed, "update: boom", "update: boom", "update: boom"},
		{recording.Panicked, "nil map", "nil map", "panic: nil map"},
	} {
		t.Run(tc.o.String(), func(t *testing.T) {
			r, err := recording.NewReader(bytes.NewReader(writeFinished(t, h, nil, tc.o, tc.msg)), "x.rec")
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Header(); got.Package != h.Package || got.Title != h.Title {
				t.Errorf("header: got package %q, title %q; want %q, %q", got.Package, got.Title, h.Package, h.Title)
			}
			_, end, err := readAll(r)
			if err != io.EOF {
				t.Fatal(err)
			}
			if end.Outcome != tc.o || end.Error != tc.wantMsg {
				t.Errorf("got %v %q, want %v %q", end.Outcome, end.Error, tc.o, tc.wantMsg)
			}
			if got := fmt.Sprint(end.Err()); (end.Err() == nil) != (tc.wantErr == "") || (tc.wantErr != "" && got != tc.wantErr) {
				t.Errorf("Err() = %v, want %q", end.Err(), tc.wantErr)
			}
		})
	}
}

func TestDefaultCheckpointEvery(t *testing.T) {
	data := write(t, recording.Header{Game: "g"}, nil, nil)
	r, err := recording.NewReader(bytes.NewReader(data), "x.rec")
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Header().CheckpointEvery; got != recording.DefaultCheckpointEvery {
		t.Errorf("got CheckpointEvery %d, want %d", got, recording.DefaultCheckpointEvery)
	}
}

func TestCreateOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.rec")
	evs := makeSession(t, sessionOptions{seed: 9, ticks: 500, input: true, every: 60})
	w, err := recording.Create(path, testHeader)
	if err != nil {
		t.Fatal(err)
	}
	appendAll(t, w, evs)
	if got := w.Ticks(); got != 500 {
		t.Errorf("Ticks() = %d, want 500", got)
	}
	if got, want := w.Checkpoints(), uint64(500/60); got != want {
		t.Errorf("Checkpoints() = %d, want %d", got, want)
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(nil); !errors.Is(err, recording.ErrClosed) || err.Error() != "recording: "+path+": after 500 ticks: the writer is closed" {
		t.Errorf("second Close: got %v, want ErrClosed naming the file", err)
	}
	if err := w.Append(evs[0].tick); !errors.Is(err, recording.ErrClosed) {
		t.Errorf("Append after Close: got %v, want ErrClosed", err)
	}
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := readAll(r)
	if err != io.EOF {
		t.Fatalf("got %v, want io.EOF", err)
	}
	if d := diffEvents(got, evs); d != "" {
		t.Error(d)
	}
	if err := r.Close(); err != nil {
		t.Error(err)
	}

	_, err = recording.Open(filepath.Join(t.TempDir(), "missing.rec"))
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.rec") {
		t.Errorf("Open of a missing file: got %v, want an error naming it that wraps fs.ErrNotExist", err)
	}
	_, err = recording.Create(filepath.Join(t.TempDir(), "no", "such", "dir.rec"), testHeader)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "dir.rec") {
		t.Errorf("Create in a missing directory: got %v, want an error naming the file", err)
	}
}

// TestChunksFlushedEverySecond checks the recorded-time bound: a chunk is
// handed over with the first tick that ends FlushInterval or more after
// the chunk's first tick ended, so no tick but the last of a chunk ends
// that late, and (these chunks being far below the size bound) the last
// one does. The writer's clock stands still, so only recorded time counts.
func TestChunksFlushedEverySecond(t *testing.T) {
	evs := makeSession(t, sessionOptions{seed: 11, ticks: 3000, every: 60})
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, "x.rec", testHeader)
	if err != nil {
		t.Fatal(err)
	}
	w.SetClock(timing.NewManualClock(0))
	appendAll(t, w, evs)
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	offs := chunkOffsets(t, data)
	perSecond := int(time.Second / recording.FlushInterval)
	if n := len(offs) - 1; n < 45*perSecond || n > 70*perSecond {
		t.Errorf("got %d tick chunks for about 50 s of recorded time, want %d a second", n, perSecond)
	}
	seen := 0
	for i, off := range append(offs[2:], len(data)) {
		r, err := recording.NewReader(bytes.NewReader(data[:off]), "x.rec")
		if err != nil {
			t.Fatal(err)
		}
		got, _, _ := readAll(r)
		var ends []timing.Instant
		for _, e := range got[seen:] {
			if e.tick != nil {
				ends = append(ends, e.tick.Update.End)
			}
		}
		seen = len(got)
		if len(ends) == 0 {
			t.Fatalf("chunk %d holds no tick", i+1)
		}
		for j, end := range ends {
			late := end-ends[0] >= timing.Instant(recording.FlushInterval)
			if last := j == len(ends)-1; late != last && (!last || off != len(data)) {
				t.Errorf("chunk %d: tick %d of %d ends %v after the first", i+1, j+1, len(ends),
					time.Duration(end-ends[0]))
			}
		}
	}
}

// TestChunksFlushedInRealTime checks the real-time bound: ticks whose
// recorded time stands still (a burst of catch-up ticks, a slow start)
// are handed over once FlushInterval of the writer's clock has passed
// since the chunk's first tick, from the very first tick on.
func TestChunksFlushedInRealTime(t *testing.T) {
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, "x.rec", testHeader)
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewManualClock(0)
	w.SetClock(clock)
	tick := recording.Tick{Update: timing.Update{Kind: timing.FixedUpdate, Delta: time.Millisecond, End: timing.Instant(time.Millisecond)}}
	for i := range 12 {
		tick.Update.Number = uint64(i)
		if err := w.Append(&tick); err != nil {
			t.Fatal(err)
		}
		clock.Advance(recording.FlushInterval / 10)
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	var readable []int
	for _, off := range append(chunkOffsets(t, data)[2:], len(data)) {
		r, err := recording.NewReader(bytes.NewReader(data[:off]), "x.rec")
		if err != nil {
			t.Fatal(err)
		}
		n, _ := countItems(r)
		readable = append(readable, n)
	}
	// Ticks 0 to 10 span the interval: the 11th hands them over; Close the
	// last.
	if want := []int{11, 12}; !slices.Equal(readable, want) {
		t.Errorf("ticks readable after each chunk: got %v, want %v", readable, want)
	}
}
