package recording_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/metronome-go/metronome/recording"
)

// TestTornTail cuts a recording at every byte offset of its last chunk: the
// reader returns every item of the complete chunks, then ErrIncomplete.
func TestTornTail(t *testing.T) {
	evs := makeSession(t, sessionOptions{seed: 21, ticks: 600, input: true, every: 60})
	data := write(t, testHeader, evs, nil)
	offs := chunkOffsets(t, data)
	last := offs[len(offs)-1]
	r, err := recording.NewReader(bytes.NewReader(data[:last]), "torn.rec")
	if err != nil {
		t.Fatal(err)
	}
	complete, _, err := readAll(r)
	if !errors.Is(err, recording.ErrIncomplete) {
		t.Fatalf("cut before the last chunk: got %v, want ErrIncomplete", err)
	}
	if d := diffEvents(complete, evs[:len(complete)]); d != "" {
		t.Fatal(d)
	}
	if len(complete) == 0 || len(complete) == len(evs) {
		t.Fatalf("the last chunk holds %d of %d events; the test needs some on each side", len(evs)-len(complete), len(evs))
	}
	for cut := last; cut < len(data); cut++ {
		r, err := recording.NewReader(bytes.NewReader(data[:cut]), "torn.rec")
		if err != nil {
			t.Fatal(err)
		}
		n, err := countItems(r)
		errorIs(t, err, recording.ErrIncomplete, "torn.rec: byte "+itoa(last)+", after ")
		if n != len(complete) {
			t.Fatalf("cut at %d of %d: got %d events, want the %d of the complete chunks", cut, len(data), n, len(complete))
		}
	}
}

// TestTornAnywhere cuts a small recording at every byte: whatever the
// cut, the reader returns a prefix of what was written and reports the
// rest as incomplete, never as corrupt.
func TestTornAnywhere(t *testing.T) {
	evs := makeSession(t, sessionOptions{seed: 22, ticks: 120, input: true, every: 30})
	data := write(t, testHeader, evs, nil)
	prev := 0
	for cut := range len(data) {
		r, err := recording.NewReader(bytes.NewReader(data[:cut]), "torn.rec")
		if err != nil {
			errorIs(t, err, recording.ErrIncomplete, "torn.rec: byte ")
			continue
		}
		n, err := countItems(r)
		errorIs(t, err, recording.ErrIncomplete)
		if n < prev {
			t.Fatalf("cut at %d: got %d events, fewer than a shorter cut gave (%d)", cut, n, prev)
		}
		if n > prev || cut%101 == 0 {
			r, _ := recording.NewReader(bytes.NewReader(data[:cut]), "torn.rec")
			got, _, _ := readAll(r)
			if d := diffEvents(got, evs[:len(got)]); d != "" {
				t.Fatalf("cut at %d: %s", cut, d)
			}
		}
		prev = n
	}
}

// TestTornChecksum: a last chunk whose checksum fails with nothing after it
// is a torn write (incomplete); the same chunk with data after it is
// damage.
func TestTornChecksum(t *testing.T) {
	evs := makeSession(t, sessionOptions{seed: 23, ticks: 300, every: 60})
	data := write(t, testHeader, evs, nil)
	offs := chunkOffsets(t, data)
	last := offs[len(offs)-1]

	bad := bytes.Clone(data)
	bad[len(bad)-1] ^= 0x40
	r, err := recording.NewReader(bytes.NewReader(bad), "t.rec")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = readAll(r)
	errorIs(t, err, recording.ErrIncomplete, "torn write")
	if errors.Is(err, recording.ErrCorrupt) {
		t.Errorf("a torn last chunk reads as corrupt: %v", err)
	}

	bad = append(bad, 0)
	r, err = recording.NewReader(bytes.NewReader(bad), "t.rec")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = readAll(r)
	errorIs(t, err, recording.ErrCorrupt, "checksum", "byte "+itoa(last))
}

// TestFollowWriter reads a recording while it is written: the test reveals
// the written bytes to the reader a random number at a time, often in the
// middle of a chunk, and the reader returns each item once, in order,
// reporting ErrIncomplete whenever it has caught up.
func TestFollowWriter(t *testing.T) {
	evs := makeSession(t, sessionOptions{seed: 24, ticks: 3000, input: true, every: 60})
	p := newPipe()
	w, err := recording.NewWriter(p, "live.rec", testHeader)
	if err != nil {
		t.Fatal(err)
	}
	pr := &pipeReader{p: p, limit: -1}
	r, err := recording.NewReader(pr, "live.rec")
	if err != nil {
		t.Fatal(err)
	}
	pr.limit = pr.off
	rng := rand.New(rand.NewPCG(24, 1))
	var got []event
	var end *recording.End
	// catchUp reveals bytes until the reader has n events (or the end
	// marker, with n < 0).
	catchUp := func(n int) {
		t.Helper()
		for n < 0 && end == nil || len(got) < n {
			it, err := r.Next()
			switch v := it.(type) {
			case *recording.Tick:
				c := *v
				c.Records = append(c.Records[:0:0], v.Records...)
				c.Shutdown = append(c.Shutdown[:0:0], v.Shutdown...)
				got = append(got, event{tick: &c})
				continue
			case *recording.Checkpoint:
				c := *v
				c.Types = append(c.Types[:0:0], v.Types...)
				got = append(got, event{cp: &c})
				continue
			case *recording.End:
				e := *v
				end = &e
				continue
			}
			errorIs(t, err, recording.ErrIncomplete, "live.rec")
			if !pr.reveal(rng.IntN(300)) {
				<-p.wrote // everything written is visible: wait for more
			}
		}
	}
	for i := 0; i < len(evs); {
		n := min(1+rng.IntN(150), len(evs)-i)
		appendAll(t, w, evs[i:i+n])
		i += n
		if rng.IntN(2) == 0 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			catchUp(i)
		}
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	catchUp(-1)
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the end marker: got %v, want io.EOF", err)
	}
	if d := diffEvents(got, evs); d != "" {
		t.Error(d)
	}
	if end.Ticks != 3000 {
		t.Errorf("end marker counts %d ticks, want 3000", end.Ticks)
	}
}

// signalWriter announces each write to a file.
type signalWriter struct {
	f     *os.File
	wrote chan struct{}
}

func (s signalWriter) Write(b []byte) (int, error) {
	n, err := s.f.Write(b)
	s.wrote <- struct{}{}
	return n, err
}

// TestFollowFile follows a real file: a read at its end returns io.EOF,
// and a later one sees what the writer added since.
func TestFollowFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.rec")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sw := signalWriter{f, make(chan struct{}, 1024)}
	w, err := recording.NewWriter(sw, path, testHeader)
	if err != nil {
		t.Fatal(err)
	}
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	evs := makeSession(t, sessionOptions{seed: 25, ticks: 600, input: true, every: 60})
	n := 0
	read := func(want int) {
		t.Helper()
		for n < want {
			if _, err := r.Next(); err != nil {
				errorIs(t, err, recording.ErrIncomplete)
				<-sw.wrote
				continue
			}
			n++
		}
	}
	for i := 0; i < len(evs); i += 100 {
		appendAll(t, w, evs[i:min(i+100, len(evs))])
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		read(min(i+100, len(evs)))
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	read(len(evs) + 1) // the end marker
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the end marker: got %v, want io.EOF", err)
	}
}
