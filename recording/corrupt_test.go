package recording_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

func TestBadStart(t *testing.T) {
	valid := write(t, testHeader, nil, nil)
	header := chunkOffsets(t, valid)
	for _, tc := range []struct {
		name string
		data []byte
		want error
		msg  string // the whole message, or a fragment after "..."
	}{
		{"empty", nil, recording.ErrIncomplete,
			`recording: game.rec: byte 0: the data ends after 0 bytes, before the magic number "MTRC"`},
		{"part of the magic", []byte("MT"), recording.ErrIncomplete, "...the data ends after 2 bytes"},
		{"zip file", []byte("PK\x03\x04\x14\x00\x00\x00"), recording.ErrNotRecording,
			`recording: game.rec: byte 0: not a Metronome recording (it starts with "PK\x03\x04", a recording with "MTRC")`},
		{"short other file", []byte("{}"), recording.ErrNotRecording, "...not a Metronome recording"},
		{"other magic", []byte("MTRX\x01"), recording.ErrNotRecording, "...not a Metronome recording"},
		{"version 10", []byte("MTRC\x0a"), recording.ErrVersion,
			"recording: game.rec: byte 4: format version 10 is not supported (this build reads 2 to 9)"},
		{"version 0", []byte("MTRC\x00"), recording.ErrVersion, "...format version 0 is not supported"},
		{"version 300", []byte("MTRC\xac\x02"), recording.ErrVersion, "...format version 300 is not supported"},
		{"version not a varint", []byte("MTRC\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"), recording.ErrCorrupt,
			"...byte 4: the format version is not a valid varint"},
		{"version cut", []byte("MTRC\x81"), recording.ErrIncomplete, "...byte 4: the data ends inside the format version"},
		{"no header", []byte("MTRC\x02"), recording.ErrIncomplete, "...byte 5: the data ends inside the frame of chunk 0"},
		{"header cut", valid[:header[1]-1], recording.ErrIncomplete, "...byte 5: the data ends inside chunk 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := recording.NewReader(bytes.NewReader(tc.data), "game.rec")
			if r != nil {
				t.Fatalf("got a reader for %q", tc.data)
			}
			errorIs(t, err, tc.want)
			if frag, ok := strings.CutPrefix(tc.msg, "..."); ok {
				if !strings.Contains(err.Error(), frag) {
					t.Errorf("got %q, want it to say %q", err, frag)
				}
			} else if err.Error() != tc.msg {
				t.Errorf("got  %q\nwant %q", err, tc.msg)
			}
		})
	}
}

// frame makes a chunk with a correct frame around payload.
func frame(payload ...[]byte) []byte { return framed(nil, payload...) }

// framed makes a chunk whose length checksum starts with prefix (the
// magic number and the version for the header).
func framed(prefix []byte, payload ...[]byte) []byte {
	tab := crc32.MakeTable(crc32.Castagnoli)
	p := bytes.Join(payload, nil)
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(p)))
	ls := crc32.Update(crc32.Update(0, tab, prefix), tab, b)
	b = binary.LittleEndian.AppendUint32(b, ls)
	b = binary.LittleEndian.AppendUint32(b, crc32.Update(ls, tab, p))
	return append(b, p...)
}

// lengthOnly makes a frame whose length n passes its checksum, with no
// payload after it.
func lengthOnly(n uint32) []byte { return lengthOnlyAfter(nil, n) }

func lengthOnlyAfter(prefix []byte, n uint32) []byte {
	tab := crc32.MakeTable(crc32.Castagnoli)
	b := binary.LittleEndian.AppendUint32(nil, n)
	b = binary.LittleEndian.AppendUint32(b, crc32.Update(crc32.Update(0, tab, prefix), tab, b))
	return append(b, 0, 0, 0, 0)
}

// oldFrame makes a version 2 or 3 chunk around payload.
func oldFrame(payload ...[]byte) []byte {
	tab := crc32.MakeTable(crc32.Castagnoli)
	p := bytes.Join(payload, nil)
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(p)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Update(crc32.Update(0, tab, b), tab, p))
	return append(b, p...)
}

func uv(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.AppendUvarint(b, v)
	}
	return b
}

// TestCorruptChunks builds recordings whose frames are sound but whose
// contents no writer makes, and recordings whose frames are damaged in
// the middle: each is an error wrapping ErrCorrupt that names the byte,
// and then the reader stays failed.
func TestCorruptChunks(t *testing.T) {
	valid := write(t, testHeader, nil, nil)
	start := valid[:chunkOffsets(t, valid)[1]] // magic, version, header
	at := len(start)
	payload := at + frameLen  // the first chunk's payload
	item := itoa(payload + 1) // its first item, after the chunk number
	var headerCase = func(fields ...[]byte) []byte {
		return append([]byte("MTRC\x04"), framed([]byte("MTRC\x04"), uv(0), bytes.Join(fields, nil))...)
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"unknown item", cat(start, frame(uv(1, 7))), "byte " + item + ", before the first tick: item type 7 is not defined"},
		{"unknown tick flags", cat(start, frame(uv(1, 1<<24))), "byte " + item + ", before the first tick: tick flags 0x800000 are not defined"},
		{"negative presents", cat(start, frame(uv(1, 1<<23, 1))) /* 1 is -1 as a varint */, "before the first tick: Tick.Presented reads -1 (allowed: 0 or more)"},
		{"players' input outside a match", cat(start, frame(uv(1, 1<<22))), "byte " + item + ", before the first tick: tick flags 0x200000 give players' input, but the recording is not of a networked match"},
		{"pacing outside a match", cat(start, frame(uv(1, 7, 0, 0, 0, 0, 0, 0))), "byte " + item + ", before the first tick: item type 7 is not defined in format version 9"},
		{"net figures outside a match", cat(start, frame(uv(1, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))), "item type 9 is not defined in format version 9"},
		{"update kind 3", cat(start, frame(uv(1, 3<<1))), "update kind 3 is not a timing.Kind (allowed: 0 to 2)"},
		{"bad varint", cat(start, frame(uv(1, 1<<5), bytes.Repeat([]byte{0xff}, 11))), "byte " + itoa(payload+2) + ", before the first tick: a varint overflows 64 bits"},
		{"item cut", cat(start, frame(uv(1, 1<<5))), "byte " + itoa(payload+2) + ", before the first tick: a varint runs past the end"},
		{"records beyond the limit", cat(start, frame(uv(1, 1<<7, recording.MaxRecords+1))), "record count 1048577 is out of range (allowed: 0 to 1048576)"},
		{"records beyond the chunk", cat(start, frame(uv(1, 1<<7, 1000), []byte{1, 2})), "record count 1000 needs more bytes than the 2 left"},
		{"shutdown flag without requests", cat(start, frame(uv(1, 1<<21, 0))), "tick flags say shutdown requests follow, but none do"},
		{"shutdown requests beyond the limit", cat(start, frame(uv(1, 1<<21, recording.MaxShutdownRequests+1))), "shutdown request count 1025 is out of range (allowed: 0 to 1024)"},
		{"shutdown reason too long", cat(start, frame(uv(1, 1<<21, 1, recording.MaxReasonBytes+1), []byte{0, 0, 0})), "shutdown reason length 257 is out of range (allowed: 0 to 256)"},
		{"no records", cat(start, frame(uv(1, 1<<7, 0))), "a tick flagged as having records has none"},
		{"record kind 0", cat(start, frame(uv(1, 1<<7, 1), []byte{0x40})), "record 0: kind 0 is not an input record kind (allowed: 1 to 14)"},
		{"record kind 15", cat(start, frame(uv(1, 1<<7, 1), []byte{0x4f})), "record 0: kind 15 is not an input record kind"},
		{"record flag on a press", cat(start, frame(uv(1, 1<<7, 1), []byte{0xc1, 3})), "record 0: a press record has no flag"},
		{"record width past int32", cat(start, frame(uv(1, 1<<7, 1), []byte{0x47}, uv(1<<33, 0))), "record width 4294967296 is out of range (allowed: -2147483648 to 2147483647)"},
		{"timing mask", cat(start, frame(uv(1, 1<<4, 1<<32))), "timing mask 0x100000000 names fields that do not exist"},
		{"timing mode past uint8", cat(start, frame(uv(1, 1<<4, 1<<26, 512))), "timing field 26 holds 256, more than its uint8 allows"},
		{"input flags without interval", cat(start, frame(uv(1, 1<<6, 0))), "give an input interval's start or length"},
		{"undefined type name", cat(start, frame(uv(1, 1), uv(0), make([]byte, 8), uv(1, 3<<2))), "checkpoint type 0 refers to name 3, but only 0 are defined"},
		{"type name too long", cat(start, frame(uv(1, 1), uv(0), make([]byte, 8), uv(1, 0, recording.MaxNameLen+1))), "type name length 1025 is out of range"},
		{"negative count", cat(start, frame(uv(1, 1), uv(0), make([]byte, 8), uv(1, 2, 1), []byte("A"), uv(1))), `checkpoint type "A": count -1 is out of range`},
		{"end counts", cat(start, frame(uv(1, 3, 5, 0, 0, 0))), "the end marker counts 5 ticks, the recording holds 0"},
		{"after the end in its chunk", cat(start, frame(uv(1, 3, 0, 0, 0, 0, 0))), "byte " + itoa(payload+6) + ", before the first tick: the chunk goes on for 1 bytes after the end marker"},
		{"after the end", cat(start, frame(uv(1, 3, 0, 0, 0, 0)), []byte{0}), "byte " + itoa(payload+6) + ", before the first tick: data follows the end marker"},
		{"chunk skipped", cat(start, frame(uv(2, 0))), "byte " + itoa(payload) + ", before the first tick: chunk number 2 where chunk 1 was expected"},
		{"length 0", cat(start, lengthOnly(0)), "byte " + itoa(at) + ", before the first tick: chunk 1: length 0 is out of range (allowed: 1 to 67108864)"},
		{"length past the limit", cat(start, lengthOnly(recording.MaxChunk+1)), "chunk 1: length 67108865 is out of range"},
		{"length damaged", cat(start, []byte{0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), "byte " + itoa(at) + ", before the first tick: chunk 1: the length field (65535) fails its checksum"},
		{"end outcome undefined", cat(start, frame(uv(1, 3, 0, 0, 8, 1), []byte("x"))), "the end marker's outcome 8 is not defined (allowed: 0 to 7)"},
		{"clean end with a message", cat(start, frame(uv(1, 3, 0, 0, 0, 1), []byte("x"))), "the end marker says clean stop but carries a message"},
		{"failed end without a message", cat(start, frame(uv(1, 3, 0, 0, 2, 0))), "the end marker says failed without a message"},
		{"header chunk past its limit", append([]byte("MTRC\x04"), lengthOnlyAfter([]byte("MTRC\x04"), recording.MaxHeaderChunk+1)...), "byte 5: chunk 0: length 1053761 is out of range (allowed: 1 to 1053760)"},
		{"header config limit", headerCase(uv(0, 0, 0, 0, 0, recording.MaxConfigLen+1)), "byte 23: Header.Config length 1048577 is out of range"},
		{"header string limit", headerCase(uv(recording.MaxStringLen + 1)), "byte 18: Header.Framework length 1025 is out of range"},
		{"header package limit", headerCase(uv(0, 0, 0, recording.MaxStringLen+1)), "byte 21: Header.Package length 1025 is out of range"},
		{"header interval 0", headerCase(uv(0, 0, 0, 0, 0, 0), make([]byte, 8), uv(0)), "Header.CheckpointEvery 0 is out of range (allowed: 1 to 1048576)"},
		{"header trailing", headerCase(uv(0, 0, 0, 0, 0, 0), make([]byte, 8), uv(60), []byte{7}), "the header's chunk goes on for 1 bytes after it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := recording.NewReader(bytes.NewReader(tc.data), "bad.rec")
			if err == nil {
				_, _, err = readAll(r)
			}
			errorIs(t, err, recording.ErrCorrupt, "recording: bad.rec: byte ", tc.msg)
			if r != nil {
				if _, again := r.Next(); again != err {
					t.Errorf("the next call returned %v, want the same error", again)
				}
			}
		})
	}
}

// TestCorruptMiddle damages one chunk of a long recording in turn at its
// frame, its checksum and its payload: the reader returns what came
// before and an ErrCorrupt naming the chunk's first byte.
func TestCorruptMiddle(t *testing.T) {
	evs := makeSession(t, sessionOptions{seed: 31, ticks: 1500, input: true, every: 60})
	data := write(t, testHeader, evs, nil)
	offs := chunkOffsets(t, data)
	k := len(offs) / 2
	at := offs[k]
	r, _ := recording.NewReader(bytes.NewReader(data[:at]), "x.rec")
	before, _, _ := readAll(r)
	for _, tc := range []struct {
		name string
		pos  int
		msg  string
	}{
		{"payload", at + 20, "checksum"},
		{"checksum", at + 5, "checksum"},
		{"length", at + 1, "the length field"},
		// A length past the end of the file read as a chunk still being
		// written before the length had a checksum of its own.
		{"length past the end", at + 3, "the length field (268"},
		{"last payload byte", offs[k+1] - 1, "checksum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := bytes.Clone(data)
			bad[tc.pos] ^= 0x10
			r, err := recording.NewReader(bytes.NewReader(bad), "x.rec")
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := readAll(r)
			errorIs(t, err, recording.ErrCorrupt, "recording: x.rec: byte "+itoa(at)+", after ", tc.msg)
			if d := diffEvents(got, before); d != "" {
				t.Error(d)
			}
		})
	}
	// A chunk dropped or repeated is found by its number.
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"dropped", append(bytes.Clone(data[:at]), data[offs[k+1]:]...), "chunk number " + itoa(k+1) + " where chunk " + itoa(k) + " was expected"},
		{"repeated", append(bytes.Clone(data[:offs[k+1]]), data[at:]...), "chunk number " + itoa(k) + " where chunk " + itoa(k+1) + " was expected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := recording.NewReader(bytes.NewReader(tc.data), "x.rec")
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = readAll(r)
			errorIs(t, err, recording.ErrCorrupt, tc.msg)
		})
	}
}

// TestReadError: an error from the source other than io.EOF is final and
// wrapped.
func TestReadError(t *testing.T) {
	data := write(t, testHeader, makeSession(t, sessionOptions{seed: 32, ticks: 200, every: 60}), nil)
	boom := errors.New("device gone")
	r, err := recording.NewReader(io.MultiReader(bytes.NewReader(data[:len(data)-10]), errReader{boom}), "x.rec")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = readAll(r)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "x.rec: byte ") {
		t.Errorf("got %v, want an error naming the file and wrapping %v", err, boom)
	}
	if errors.Is(err, recording.ErrIncomplete) {
		t.Errorf("a read error reads as incomplete: %v", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// TestReadsOldVersions: recordings written by the builds of versions 2
// and 3 (testdata/v2.rec and v3.rec, made from the same session as
// below) read as they did, with the outcome their message implies.
func TestReadsOldVersions(t *testing.T) {
	evs := makeSession(t, sessionOptions{seed: 5, ticks: 300, input: true, every: 60})
	for _, tc := range []struct {
		file     string
		shutdown bool
		outcome  recording.Outcome
		msg      string
	}{
		{"testdata/v2.rec", false, recording.Clean, ""},
		{"testdata/v3.rec", true, recording.Failed, "boom"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r, err := recording.Open(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if h := r.Header(); h.Game != testHeader.Game || h.Package != "" || h.Title != "" {
				t.Errorf("header: got game %q, package %q, title %q; want %q and none", h.Game, h.Package, h.Title, testHeader.Game)
			}
			got, end, err := readAll(r)
			if err != io.EOF {
				t.Fatalf("after the end marker: got %v, want io.EOF", err)
			}
			want := evs
			if !tc.shutdown {
				want = nil
				for _, e := range evs {
					if e.tick != nil {
						c := *e.tick
						c.Shutdown = nil
						e = event{tick: &c}
					}
					want = append(want, e)
				}
			}
			if d := diffEvents(got, want); d != "" {
				t.Fatal(d)
			}
			if end.Outcome != tc.outcome || end.Error != tc.msg {
				t.Errorf("end: got %v %q, want %v %q", end.Outcome, end.Error, tc.outcome, tc.msg)
			}
		})
	}
}

// TestVersionByteDamaged: the version number is under the header's
// checksum, so a damaged version byte reads as damage, not as a
// recording of another version.
func TestVersionByteDamaged(t *testing.T) {
	data := write(t, testHeader, makeSession(t, sessionOptions{seed: 6, ticks: 30, every: 10}), nil)
	for _, v := range []byte{2, 3, 4, 5, 6, 7, 8, 10, 0x7f} {
		bad := bytes.Clone(data)
		bad[4] = v
		_, err := recording.NewReader(bytes.NewReader(bad), "v.rec")
		errorIs(t, err, recording.ErrCorrupt, "recording: v.rec: byte 4: the format version reads "+itoa(int(v))+", but the header's checksum holds version 9: the version byte is damaged")
	}
	// A recording of a version this build does not know, whose checksums
	// agree with its version byte, is a version error as before.
	other := append([]byte("MTRC\x0a"), framed([]byte("MTRC\x0a"), uv(0, 0, 0, 0, 0, 0, 0), make([]byte, 8), uv(60))...)
	_, err := recording.NewReader(bytes.NewReader(other), "v.rec")
	errorIs(t, err, recording.ErrVersion, "format version 10 is not supported")
}

// TestHookItems: hook items round-trip between ticks, a writer refuses a
// hook name the format does not define, and a version 3 recording, which
// has no hook items, refuses one.
func TestHookItems(t *testing.T) {
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, "hooks.rec", testHeader)
	if err != nil {
		t.Fatal(err)
	}
	hooks := []recording.Hook{{Name: recording.HookInitSimulation, Futures: 3}, {Name: recording.HookDeinitSimulation, Futures: 1 << 40}}
	tick := &recording.Tick{Update: timing.Update{Kind: timing.FixedUpdate, Delta: time.Millisecond, End: timing.Instant(time.Millisecond), Steps: 1, Final: true}}
	for _, err := range []error{w.Hook(&hooks[0]), w.Append(tick), w.Hook(&hooks[1])} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	data := slices.Clone(buf.Bytes())
	r, err := recording.NewReader(bytes.NewReader(data), "hooks.rec")
	if err != nil {
		t.Fatal(err)
	}
	var got []recording.Hook
	ticks := 0
	for {
		it, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch it := it.(type) {
		case *recording.Hook:
			got = append(got, *it)
		case *recording.Tick:
			if len(got) != 1 {
				t.Errorf("tick read after %d hooks, want 1", len(got))
			}
			ticks++
		}
	}
	if !slices.Equal(got, hooks) || ticks != 1 {
		t.Errorf("read hooks %v and %d ticks, want %v and 1", got, ticks, hooks)
	}

	// A version 3 file (old frames, no Package or Title) with a hook item.
	old := append([]byte("MTRC\x03"), oldFrame(uv(0, 0, 0, 0, 0), make([]byte, 8), uv(60))...)
	old = append(old, oldFrame(uv(1, 5), []byte{0}, uv(3))...)
	r, err = recording.NewReader(bytes.NewReader(old), "old.rec")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, recording.ErrCorrupt) || !strings.Contains(err.Error(), "format version 3") {
		t.Errorf("a hook item in version 3: got %v, want ErrCorrupt naming the version", err)
	}

	w, err = recording.NewWriter(io.Discard, "bad.rec", testHeader)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Hook(&recording.Hook{Name: 9}); !errors.Is(err, recording.ErrInvalid) || !strings.Contains(err.Error(), "Hook.Name") {
		t.Errorf("hook name 9: got %v, want ErrInvalid naming Hook.Name", err)
	}
	_ = w.Close(nil)
}

// TestReadsVersion4: a recording of version 4 (testdata/v4.rec, the
// template game's session as version 4 wrote it) reads to its end, with
// the rollback statistics version 5 added as zero.
func TestReadsVersion4(t *testing.T) {
	r, err := recording.Open("testdata/v4.rec")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, _, err := readAll(r)
	if err != io.EOF {
		t.Fatalf("after the end marker: got %v, want io.EOF", err)
	}
	ticks := 0
	for _, e := range got {
		if e.tick != nil {
			ticks++
			if s := e.tick.Timing; s.Resimulated != 0 || s.Ledger.Resimulation != 0 || s.Ledger.Advantage != 0 {
				t.Fatalf("tick %d: rollback statistics %d, %v, %v; want zero", ticks, s.Resimulated, s.Ledger.Resimulation, s.Ledger.Advantage)
			}
		}
	}
	if ticks == 0 {
		t.Error("no ticks read")
	}
}
