package recording_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/recording"
)

// FuzzReader feeds the reader damaged and made-up recordings. It must
// never panic, every error must name the file and a byte offset and wrap
// one of the package's sentinels, and whatever it decodes to the end
// marker must survive being written again and read back unchanged.
func FuzzReader(f *testing.F) {
	small := makeSession(f, sessionOptions{seed: 71, ticks: 40, input: true, every: 10})
	f.Add(write(f, testHeader, small, nil))
	f.Add(write(f, recording.Header{}, small[:5], errors.New("boom")))
	f.Add(write(f, testHeader, makeSession(f, sessionOptions{seed: 72, ticks: 30, input: true, timestamped: true, every: 7}), nil))
	rng := rand.New(rand.NewPCG(73, 1))
	var random []event
	for range 10 {
		random = append(random, event{tick: randomTick(rng, rng.IntN(3))})
	}
	f.Add(write(f, testHeader, random, nil))
	torn := write(f, testHeader, small, nil)
	f.Add(torn[:len(torn)-3])
	f.Add([]byte("MTRC\x01"))
	// The older versions, a damaged version byte and length field, each
	// outcome, a header's strings at their limits.
	// A networked match's recording, whole and cut.
	match := write(f, matchHeader, makeMatch(74, 50, 10, *matchHeader.Net), nil)
	f.Add(match)
	f.Add(match[:len(match)-5])
	// A session's presents, as the writer notes them.
	var pbuf bytes.Buffer
	pw, err := recording.NewWriter(&pbuf, "p.rec", testHeader)
	if err != nil {
		f.Fatal(err)
	}
	var noted uint64
	pw.WatchPresents(func() recording.Presents { noted++; return recording.Presents{Updates: noted * 30, Frames: noted * 29} })
	appendAll(f, pw, small)
	pw.Flush()
	appendAll(f, pw, small[:4])
	if err := pw.Close(nil); err != nil {
		f.Fatal(err)
	}
	f.Add(pbuf.Bytes())
	for _, name := range []string{"testdata/v2.rec", "testdata/v3.rec", "testdata/v5.rec", "testdata/v7match.rec"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	damaged := write(f, testHeader, small, nil)
	damaged[4] = 3
	f.Add(damaged)
	damaged = write(f, testHeader, small, nil)
	damaged[chunkOffsets(f, damaged)[1]+1] ^= 0x40
	f.Add(damaged)
	for o := recording.Clean; o <= recording.Panicked; o++ {
		f.Add(writeFinished(f, testHeader, small[:3], o, "interrupt"))
	}
	big := testHeader
	big.Package, big.Title = strings.Repeat("p", recording.MaxStringLen), strings.Repeat("t", recording.MaxStringLen)
	f.Add(write(f, big, nil, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := recording.NewReader(bytes.NewReader(data), "fuzz.rec")
		if err != nil {
			checkFuzzError(t, err)
			return
		}
		var evs []event
		var end *recording.End
		for len(evs) < 1_000_000 {
			it, err := r.Next()
			if err != nil {
				if err == io.EOF {
					if end == nil {
						t.Fatal("io.EOF before the end marker")
					}
					break
				}
				checkFuzzError(t, err)
				return
			}
			switch v := it.(type) {
			case *recording.Tick:
				c := *v
				c.Records = append(c.Records[:0:0], v.Records...)
				c.Shutdown = append(c.Shutdown[:0:0], v.Shutdown...)
				c.Players = append(c.Players[:0:0], v.Players...)
				evs = append(evs, event{tick: &c})
			case *recording.Pacing:
				c := *v
				evs = append(evs, event{pacing: &c})
			case *recording.NetFigures:
				c := *v
				evs = append(evs, event{net: &c})
			case *recording.Presents:
				// The writer notes presents itself (Writer.WatchPresents):
				// the rewritten recording has none.
			case *recording.Checkpoint:
				c := *v
				c.Types = append(c.Types[:0:0], v.Types...)
				evs = append(evs, event{cp: &c})
			case *recording.End:
				if end != nil {
					t.Fatal("a second end marker")
				}
				e := *v
				end = &e
			}
		}
		// A complete recording: write it again and read it back.
		again := writeFinished(t, r.Header(), evs, end.Outcome, end.Error)
		r2, err := recording.NewReader(bytes.NewReader(again), "again.rec")
		if err != nil {
			t.Fatal(err)
		}
		if p := diff(reflect.ValueOf(r2.Header()), reflect.ValueOf(r.Header()), "Header"); p != "" {
			t.Fatal(p)
		}
		got, end2, err := readAll(r2)
		if err != io.EOF {
			t.Fatalf("reading the rewritten recording: %v", err)
		}
		if d := diffEvents(got, evs); d != "" {
			t.Fatal(d)
		}
		if *end2 != *end {
			t.Fatalf("rewritten end %+v, want %+v", *end2, *end)
		}
	})
}

func checkFuzzError(t *testing.T, err error) {
	t.Helper()
	var re *recording.Error
	if !errors.As(err, &re) || re.File != "fuzz.rec" || re.Offset < 0 {
		t.Fatalf("error %v does not name the file and a byte", err)
	}
	if !strings.HasPrefix(err.Error(), "recording: fuzz.rec: byte ") {
		t.Fatalf("error %q does not start with the file and byte", err)
	}
	for _, s := range []error{recording.ErrIncomplete, recording.ErrCorrupt, recording.ErrNotRecording, recording.ErrVersion} {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("error %v wraps none of the sentinels", err)
}
