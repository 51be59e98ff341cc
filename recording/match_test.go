package recording_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

// TestMatchRoundTrip: the recording of a networked match keeps its
// header's Net, every tick's players' action states bit for bit (whole,
// fractional, negative zero and NaN values, every field), the
// checkpoints and the pacing items, in order.
func TestMatchRoundTrip(t *testing.T) {
	for _, net := range []recording.Net{{Players: 2, Actions: 5, Peer: 1}, {Players: 1, Actions: 1, Peer: 0},
		{Players: recording.MaxPlayers, Actions: recording.MaxActions, Peer: -1}} {
		h := testHeader
		h.Net = &net
		evs := makeMatch(81, 400, 60, net)
		// Odd values, in the first tick that has players.
		odd := evs[0].tick.Players
		odd[0] = input.Stats{Down: true, Presses: math.MaxInt32, Releases: -1, Held: -time.Nanosecond,
			Value: float32(math.Copysign(0, -1)), StartValue: float32(math.NaN()), Mean: math.MaxFloat32, Peak: math.SmallestNonzeroFloat32}
		data := write(t, h, evs, nil)
		r, err := recording.NewReader(bytes.NewReader(data), "m.rec")
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Header().Net; got == nil || *got != net {
			t.Fatalf("header's Net %+v, want %+v", got, net)
		}
		got, end, err := readAll(r)
		if err != io.EOF {
			t.Fatalf("after the end: %v", err)
		}
		if d := diffEvents(got, evs); d != "" {
			t.Fatalf("%+v: %s", net, d)
		}
		if end.Ticks != 400 {
			t.Errorf("end counts %d ticks, want 400 (the last confirmed tick is 399)", end.Ticks)
		}
	}
}

// TestMatchTickBytes: a confirmed tick whose inputs did not change costs
// what a tick without input costs, and a steady match stays small.
func TestMatchTickBytes(t *testing.T) {
	evs := makeMatch(82, 3600, 60, *matchHeader.Net)
	data := write(t, matchHeader, evs, nil)
	if perTick := float64(len(data)) / 3600; perTick > 40 {
		t.Errorf("%.1f bytes a confirmed tick, want at most 40", perTick)
	}
}

// TestMatchWriterRefuses: a writer refuses a match header out of range,
// field by field, a tick of a match without every player's action
// states, one of a session that is not a match with them, and a pacing
// item outside a match.
func TestMatchWriterRefuses(t *testing.T) {
	h := testHeader
	h.Net = &recording.Net{Players: 17, Actions: 0, Peer: -2}
	_, err := recording.NewWriter(io.Discard, "m.rec", h)
	for _, field := range []string{"Header.Net.Players", "Header.Net.Actions", "Header.Net.Peer"} {
		var fe *recording.FieldError
		if !errors.As(err, &fe) || !bytes.Contains([]byte(err.Error()), []byte(field)) {
			t.Errorf("header with a bad %s: got %v, want a FieldError naming it", field, err)
		}
	}
	tick := &recording.Tick{Update: timing.Update{Kind: timing.FixedUpdate}}
	for _, tc := range []struct {
		name    string
		h       recording.Header
		players int
		pacing  bool
		want    string
	}{
		{"short", matchHeader, 3, false, "tick 0 has 3 players' action states (allowed: exactly 10, Players × Actions of Header.Net)"},
		{"not a match", testHeader, 2, false, "tick 0 has 2 players' action states, but the recording is not of a networked match (allowed: none)"},
		{"pacing", testHeader, 0, true, "a pacing item in a recording that is not of a networked match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := recording.NewWriter(io.Discard, "m.rec", tc.h)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close(nil)
			if tc.pacing {
				err = w.Pacing(&recording.Pacing{})
			} else {
				tick.Players = make([]input.Stats, tc.players)
				err = w.Append(tick)
			}
			if !errors.Is(err, recording.ErrInvalid) || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
				t.Errorf("got %v, want ErrInvalid saying %q", err, tc.want)
			}
		})
	}
}

// TestMatchCorrupt: damage in a match's recording is an error naming the
// file and the byte, never a panic: a header's Net out of range, masks
// naming players or actions that do not exist, an action state's
// undefined fields.
func TestMatchCorrupt(t *testing.T) {
	valid := write(t, matchHeader, makeMatch(83, 30, 10, *matchHeader.Net), nil)
	start := valid[:chunkOffsets(t, valid)[1]]
	head := func(net ...uint64) []byte {
		return append([]byte("MTRC\x06"), framed([]byte("MTRC\x06"), uv(0, 0, 0, 0, 0, 0, 0), make([]byte, 8), uv(60), uv(net...))...)
	}
	// A tick with players' input: flags fPlayers (bit 21) and the fixed
	// kind, shifted left as a tick's header is.
	tick := uint64(1<<21|1) << 1
	for _, tc := range []struct {
		name, msg string
		data      []byte
	}{
		{"players", "Header.Net.Players 17 is out of range", head(17, 1, 0)},
		{"actions", "Header.Net.Actions 65 is out of range", head(2, 65, 0)},
		{"peer", "Header.Net.Peer -2 is out of range", head(2, 5, 3)},
		{"player mask", "names players that do not exist", join(start, frame(uv(1, tick, 4)))},
		{"no player", "the mask names none", join(start, frame(uv(1, tick, 0)))},
		{"action mask", "the mask of actions that changed, 0x20, is not one of 1 to 0x1f", join(start, frame(uv(1, tick, 1, 1<<5)))},
		{"action header", "action state header 0x200 names fields that do not exist", join(start, frame(uv(1, tick, 1, 1, 1<<9)))},
		{"action value", "does not fit a float32", join(start, frame(uv(1, tick, 1, 1, 1<<5, 1<<33)))},
		{"cut action", "a varint runs past the end", join(start, frame(uv(1, tick, 1, 1, 1<<2)))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := recording.NewReader(bytes.NewReader(tc.data), "bad.rec")
			if err == nil {
				_, _, err = readAll(r)
			}
			errorIs(t, err, recording.ErrCorrupt, "recording: bad.rec: byte ", tc.msg)
		})
	}
}

// TestReadsVersion5: a recording of version 5 (testdata/v5.rec, the
// template game's session as version 5 wrote it) reads to its end, as a
// recording of no match.
func TestReadsVersion5(t *testing.T) {
	r, err := recording.Open("testdata/v5.rec")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Header().Net != nil {
		t.Errorf("a version 5 header reads with Net %+v, want nil", r.Header().Net)
	}
	got, end, err := readAll(r)
	if err != io.EOF {
		t.Fatalf("after the end marker: got %v, want io.EOF", err)
	}
	ticks := 0
	for _, e := range got {
		if e.tick != nil {
			ticks++
			if len(e.tick.Players) != 0 {
				t.Fatalf("tick %d has players' input", ticks)
			}
		}
	}
	if ticks == 0 || uint64(ticks) != end.Ticks {
		t.Errorf("read %d ticks, the end marker counts %d", ticks, end.Ticks)
	}
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
