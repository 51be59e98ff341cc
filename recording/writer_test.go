package recording_test

import (
	"bytes"
	"errors"
	"os"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

var errDisk = errors.New("no space left on device")

// failWriter accepts the first ok writes and fails every later one,
// announcing the first failure on failed.
type failWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	ok     int
	failed chan struct{}
}

func (f *failWriter) Write(b []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ok == 0 {
		if f.failed != nil {
			close(f.failed)
			f.failed = nil
		}
		return 0, errDisk
	}
	f.ok--
	return f.buf.Write(b)
}

func TestHeaderWriteFails(t *testing.T) {
	w, err := recording.NewWriter(&failWriter{}, "full.rec", testHeader)
	if w != nil {
		t.Fatal("got a writer on a failing file")
	}
	if !errors.Is(err, errDisk) || err.Error() != "recording: full.rec: byte 0: writing the header: no space left on device" {
		t.Errorf("got %v, want the header's write error naming the file", err)
	}
}

// TestWriteFails: a chunk write fails in the background; the next Append
// (or Flush) and Close return the error, which names the chunk's offset,
// and nothing after it is written.
func TestWriteFails(t *testing.T) {
	evs := makeSession(t, sessionOptions{seed: 41, ticks: 2000, input: true, every: 60})
	fw := &failWriter{ok: 3, failed: make(chan struct{})} // the header, chunks 1 and 2
	failed := fw.failed
	w, err := recording.NewWriter(fw, "full.rec", testHeader)
	if err != nil {
		t.Fatal(err)
	}
	// Append until the disk fails (the failure comes from the background
	// goroutine, so it may come after the last Append).
	for i, e := range evs {
		var err error
		if e.tick != nil {
			err = w.Append(e.tick)
		} else {
			err = w.Checkpoint(e.cp)
		}
		if err != nil {
			if !errors.Is(err, errDisk) {
				t.Fatalf("event %d: %v", i, err)
			}
			break
		}
	}
	w.Flush()
	<-failed
	// The failure is recorded right after the write returns.
	var got error
	for range 1_000_000 {
		if got = w.Flush(); got != nil {
			break
		}
		goruntime.Gosched()
	}
	if !errors.Is(got, errDisk) || !strings.Contains(got.Error(), "full.rec: byte ") || !strings.Contains(got.Error(), "writing chunk 3") {
		t.Fatalf("Flush after the failure: got %v, want the write error naming file, byte and chunk", got)
	}
	if err := w.Append(evs[0].tick); err != got {
		t.Errorf("Append after the failure: got %v, want %v", err, got)
	}
	if err := w.Close(nil); err != got {
		t.Errorf("Close: got %v, want %v", err, got)
	}
	// What was written reads up to the failure and then as incomplete.
	r, err := recording.NewReader(bytes.NewReader(fw.buf.Bytes()), "full.rec")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = readAll(r)
	errorIs(t, err, recording.ErrIncomplete)
}

// blockWriter blocks its first write until release is closed.
type blockWriter struct {
	started bool
	release chan struct{}
	buf     bytes.Buffer
	mu      sync.Mutex
}

func (b *blockWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	first := b.started
	b.started = true
	b.mu.Unlock()
	if first {
		<-b.release
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// TestBehind: a disk that stops leaves chunks waiting; past the queue's
// bound the writer stops with ErrBehind instead of blocking, and says so
// from then on.
func TestBehind(t *testing.T) {
	bw := &blockWriter{release: make(chan struct{})}
	w, err := recording.NewWriter(bw, "slow.rec", testHeader)
	if err != nil {
		t.Fatal(err)
	}
	tk := &recording.Tick{Update: timing.Update{Kind: timing.FixedUpdate, Delta: 1}}
	var got error
	for i := 0; i < 1000 && got == nil; i++ {
		tk.Update.Number = uint64(i)
		if got = w.Append(tk); got == nil {
			got = w.Flush()
		}
	}
	errorIs(t, got, recording.ErrBehind, "slow.rec: byte ", "chunks wait to be written")
	if err := w.Append(tk); err != got {
		t.Errorf("Append after falling behind: got %v, want %v", err, got)
	}
	close(bw.release)
	if err := w.Close(nil); err != got {
		t.Errorf("Close: got %v, want %v", err, got)
	}
	r, err := recording.NewReader(bytes.NewReader(bw.buf.Bytes()), "slow.rec")
	if err != nil {
		t.Fatal(err)
	}
	n, err := countItems(r)
	errorIs(t, err, recording.ErrIncomplete)
	if n < 200 {
		t.Errorf("read %d ticks before the loss, want the queued ones", n)
	}
}

func TestInvalidValues(t *testing.T) {
	long := strings.Repeat("x", recording.MaxNameLen+1)
	for _, tc := range []struct {
		name string
		tick *recording.Tick
		cp   *recording.Checkpoint
		msg  string
	}{
		{"update kind", &recording.Tick{Update: timing.Update{Kind: 3}},
			nil, "recording: bad.rec: after 1 tick: update kind 3 is not a timing.Kind (allowed: 0 to 2)"},
		{"record kind", &recording.Tick{Records: []input.Record{{Kind: input.RecordPress}, {}}},
			nil, "recording: bad.rec: after 1 tick: record 1: kind 0 is not an input record kind (allowed: 1 to 14)"},
		{"too many records", &recording.Tick{Records: make([]input.Record, recording.MaxRecords+1)},
			nil, "recording: bad.rec: after 1 tick: 1048577 input records in one tick (allowed: at most 1048576)"},
		{"negative count", nil, &recording.Checkpoint{Tick: 9, Types: []recording.TypeHash{{Name: "A", Count: -2}}},
			`recording: bad.rec: after 1 tick: checkpoint after tick 9: type "A" has count -2 (allowed: 0 or more)`},
		{"long name", nil, &recording.Checkpoint{Tick: 9, Types: []recording.TypeHash{{Name: long}}},
			"recording: bad.rec: after 1 tick: checkpoint after tick 9: type name of 1025 bytes (allowed: at most 1024)"},
		{"too many types", nil, &recording.Checkpoint{Types: make([]recording.TypeHash, recording.MaxTypes+1)},
			"recording: bad.rec: after 1 tick: checkpoint after tick 0 has 4097 types (allowed: at most 4096)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := recording.NewWriter(&buf, "bad.rec", testHeader)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Append(&recording.Tick{}); err != nil {
				t.Fatal(err)
			}
			if tc.tick != nil {
				err = w.Append(tc.tick)
			} else {
				err = w.Checkpoint(tc.cp)
			}
			errorIs(t, err, recording.ErrInvalid)
			if err.Error() != tc.msg {
				t.Errorf("got  %q\nwant %q", err, tc.msg)
			}
			if again := w.Append(&recording.Tick{}); again != err {
				t.Errorf("the next Append returned %v, want the same error", again)
			}
			if cerr := w.Close(nil); cerr != err {
				t.Errorf("Close returned %v, want %v", cerr, err)
			}
			// The recording holds the good tick and no end marker.
			r, err := recording.NewReader(&buf, "bad.rec")
			if err != nil {
				t.Fatal(err)
			}
			n, err := countItems(r)
			errorIs(t, err, recording.ErrIncomplete)
			if n != 1 {
				t.Errorf("read %d items, want the 1 good tick", n)
			}
		})
	}
}

func TestInvalidHeader(t *testing.T) {
	h := recording.Header{
		Framework:       strings.Repeat("v", recording.MaxStringLen+1),
		Game:            strings.Repeat("g", recording.MaxStringLen+2),
		Mode:            strings.Repeat("m", recording.MaxStringLen+3),
		Package:         strings.Repeat("p", recording.MaxStringLen+1),
		Title:           strings.Repeat("t", recording.MaxStringLen+1),
		Config:          make([]byte, recording.MaxConfigLen+1),
		CheckpointEvery: -1,
	}
	w, err := recording.NewWriter(&bytes.Buffer{}, "h.rec", h)
	if w != nil || !errors.Is(err, recording.ErrInvalid) {
		t.Fatalf("got %v, %v; want no writer and ErrInvalid", w, err)
	}
	var fields []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var fe *recording.FieldError
		if !errors.As(e, &fe) {
			t.Fatalf("got %T, want *recording.FieldError", e)
		}
		fields = append(fields, fe.Field)
	}
	want := []string{"Header.Framework", "Header.Game", "Header.Mode", "Header.Package", "Header.Title", "Header.Config", "Header.CheckpointEvery"}
	if strings.Join(fields, ",") != strings.Join(want, ",") {
		t.Errorf("got problems with %v, want %v", fields, want)
	}
	for _, frag := range []string{
		"recording: Header.Game 1026 bytes is too long; allowed: 0 to 1024 bytes",
		"recording: Header.Config 1048577 bytes is too long; allowed: 0 to 1048576 bytes",
		"recording: Header.CheckpointEvery -1 is out of range; allowed: 0 (meaning 60) to 1048576 ticks",
	} {
		if !strings.Contains(err.Error(), frag) {
			t.Errorf("error %q does not say %q", err, frag)
		}
	}
	path := t.TempDir() + "/h.rec"
	if _, err := recording.Create(path, h); !errors.Is(err, recording.ErrInvalid) {
		t.Errorf("Create: got %v, want ErrInvalid", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Create with an invalid header left a file: %v", err)
	}
}
