package recording_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

// event is one thing a session appends: a tick, a checkpoint, a match's
// pacing or net figures, or (read back only) the presents the writer
// noted.
type event struct {
	tick   *recording.Tick
	cp     *recording.Checkpoint
	pacing *recording.Pacing
	net    *recording.NetFigures
	pres   *recording.Presents
}

type sessionOptions struct {
	seed        uint64
	ticks       int
	input       bool // bursts of input records
	timestamped bool // input intervals are the updates' spans
	every       int  // checkpoint interval
}

var testHeader = recording.Header{
	Framework:       "(devel)",
	Game:            "example.com/game",
	Config:          []byte("[runtime]\nmode = \"concurrent\"\n"),
	Seed:            42,
	Mode:            "concurrent",
	CheckpointEvery: 60,
}

var typeNames = []string{
	"example.com/game/comp.Position", "example.com/game/comp.Velocity", "example.com/game/comp.Sprite",
	"example.com/game/comp.Health", "example.com/game/comp.Player", "example.com/game/comp.Bunny",
	"example.com/game/comp.Camera", "resource:example.com/game.Score",
}

// makeSession runs a real scheduler (fixed 60 Hz, repaying debt with every
// mechanism on) on a jittery clock with stalls and a suspension, and makes
// the ticks a runtime would hand the simulation.
func makeSession(t testing.TB, o sessionOptions) []event {
	t.Helper()
	rng := rand.New(rand.NewPCG(o.seed, 7))
	opts := timing.DefaultOptions()
	opts.Mode = timing.FixedMode
	opts.Rate = timing.Hz(60)
	opts.MaxFixedUpdates = 4
	opts.Recovery = timing.RepayDebt
	opts.Debt.CoarseCosmetic = true
	opts.Debt.VariableStep = true
	s, err := timing.NewScheduler(opts)
	if err != nil {
		t.Fatal(err)
	}
	now := timing.Instant(3_600_000_000_000 + rng.Int64N(1e9))
	s.Start(now)
	var (
		evs         []event
		inputEnd    = now
		futures     uint64
		shutdownSeq uint64
		cursorX     = 400.0
		cursorY     = 300.0
		counts      = make([]int, len(typeNames))
		hashes      = make([]uint64, len(typeNames))
		since       int
		down        []input.Button
		typingRune  = 'a'
	)
	for i := range counts {
		counts[i] = 10 + rng.IntN(500)
		hashes[i] = rng.Uint64()
	}
	ticks := 0
	for ticks < o.ticks {
		gap := time.Duration(16_666_667 + rng.Int64N(1_000_000) - 500_000)
		switch r := rng.IntN(1000); {
		case r < 8:
			gap = time.Duration(100+rng.IntN(400)) * time.Millisecond // a stall
		case r == 8:
			gap = 6 * time.Second // a suspension
		case r == 9:
			gap = 3 * time.Second // past the cutoff: time dropped
		}
		now += timing.Instant(gap)
		batch, err := s.Advance(now)
		if err != nil {
			t.Fatal(err)
		}
		stats := s.Stats()
		for j := range batch.Updates {
			u := batch.Updates[j]
			at := now + timing.Instant(20_000+rng.IntN(30_000)) + timing.Instant(j*5_000)
			tk := &recording.Tick{Update: u, Timing: stats}
			if o.timestamped {
				tk.InputStart, tk.InputEnd = u.Start, u.End
			} else {
				tk.InputStart, tk.InputEnd = inputEnd, at
			}
			inputEnd = tk.InputEnd
			if j == 0 {
				tk.Polls = 3 + rng.IntN(3)
			}
			if o.input && j == 0 && rng.IntN(3) == 0 {
				n := 1 + rng.IntN(12)
				if rng.IntN(20) == 0 {
					n = 100 + rng.IntN(200) // a burst
				}
				span := int64(tk.InputEnd - tk.InputStart)
				times := make([]timing.Instant, n)
				for k := range times {
					times[k] = tk.InputStart + timing.Instant(rng.Int64N(max(span, 1)))
					if k > 0 && rng.IntN(4) == 0 {
						times[k] = times[k-1]
					}
				}
				slices.Sort(times)
				for k := range n {
					rec := input.Record{Time: times[k]}
					switch c := rng.IntN(20); {
					case c < 10:
						cursorX += float64(rng.IntN(21) - 10)
						cursorY += float64(rng.IntN(21)-10) / 2
						rec.Kind, rec.X, rec.Y = input.RecordCursor, cursorX, cursorY
					case c < 13 && len(down) > 0:
						rec.Kind, rec.Button = input.RecordRelease, down[0]
						down = down[1:]
					case c < 16:
						b := []input.Button{input.KeyA, input.KeySpace, input.MouseLeft, input.KeyLeft}[rng.IntN(4)]
						rec.Kind, rec.Button = input.RecordPress, b
						down = append(down, b)
					case c < 18:
						rec.Kind, rec.Rune = input.RecordText, typingRune
						typingRune = 'a' + (typingRune-'a'+1)%26
					case c < 19:
						rec.Kind, rec.X, rec.Y = input.RecordScroll, 0, float64(rng.IntN(3)-1)
					case rng.IntN(2) == 0:
						if rng.IntN(10) == 0 {
							rec.Kind, rec.Connected = input.RecordGamepad, true
						} else {
							rec.Kind, rec.Axis, rec.X = input.RecordAxis, input.Axis(1+rng.IntN(4)), float64(float32(rng.Float64()*2-1))
						}
					default:
						switch rng.IntN(7) {
						case 0:
							rec.Kind, rec.Focused = input.RecordFocus, rng.IntN(2) == 0
						case 1:
							rec.Kind, rec.Width, rec.Height = input.RecordWindowSize, int32(800+rng.IntN(400)), 600
						case 2:
							rec.Kind, rec.X, rec.Y = input.RecordContentScale, float64(1+rng.IntN(2)), 1.25
						case 3:
							rec.Kind, rec.Hidden = input.RecordHidden, rng.IntN(2) == 0
						case 4:
							rec.Kind, rec.Minimized = input.RecordMinimized, rng.IntN(2) == 0
						case 5:
							rec.Kind, rec.Fullscreen = input.RecordFullscreen, rng.IntN(2) == 0
						default:
							rec.Kind, rec.Width, rec.Height = input.RecordFramebufferSize, 1600, 1200
							rec.Synthetic = true
						}
					}
					tk.Records = append(tk.Records, rec)
				}
			}
			if rng.IntN(50) == 0 {
				tk.Mailbox = 1 + rng.IntN(3)
			}
			if rng.IntN(30) == 0 {
				futures += uint64(1 + rng.IntN(2))
			}
			tk.Futures = futures
			if rng.IntN(80) == 0 {
				reasons := []string{"window close", "quit", "tool"}
				for range 1 + rng.IntN(2) {
					shutdownSeq++
					tk.Shutdown = append(tk.Shutdown, recording.ShutdownRequest{
						Reason: reasons[rng.IntN(len(reasons))],
						At:     u.Start - timing.Instant(rng.IntN(int(time.Millisecond))),
						Seq:    shutdownSeq,
					})
				}
			}
			evs = append(evs, event{tick: tk})
			ticks++
			since++
			if since == o.every {
				since = 0
				cp := &recording.Checkpoint{Tick: u.Number, Hash: rng.Uint64()}
				for k, name := range typeNames {
					if rng.IntN(3) == 0 {
						hashes[k] = rng.Uint64()
					}
					if rng.IntN(5) == 0 {
						counts[k] += rng.IntN(7) - 3
						counts[k] = max(counts[k], 0)
					}
					cp.Types = append(cp.Types, recording.TypeHash{Name: name, Hash: hashes[k], Count: counts[k]})
				}
				evs = append(evs, event{cp: cp})
			}
			if ticks == o.ticks {
				tk.Stop = true
				break
			}
		}
	}
	return evs
}

// write records evs with a header and returns the bytes. With end false
// the writer is closed all the same but the end marker is cut away by
// returning only the bytes flushed before Close.
func write(t testing.TB, h recording.Header, evs []event, outcome error) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, "test.rec", h)
	if err != nil {
		t.Fatal(err)
	}
	appendAll(t, w, evs)
	if err := w.Close(outcome); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// writeFinished is write with an outcome of the writer's own terms.
func writeFinished(t testing.TB, h recording.Header, evs []event, o recording.Outcome, msg string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, "test.rec", h)
	if err != nil {
		t.Fatal(err)
	}
	appendAll(t, w, evs)
	if err := w.Finish(o, msg); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func appendAll(t testing.TB, w *recording.Writer, evs []event) {
	t.Helper()
	for i, e := range evs {
		var err error
		switch {
		case e.tick != nil:
			err = w.Append(e.tick)
		case e.pacing != nil:
			err = w.Pacing(e.pacing)
		case e.net != nil:
			err = w.Net(e.net)
		case e.pres != nil:
			t.Fatalf("event %d: presents are the writer's to note", i)
		default:
			err = w.Checkpoint(e.cp)
		}
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
	}
}

// readAll reads every item, copying each, until an error.
func readAll(r *recording.Reader) ([]event, *recording.End, error) {
	var evs []event
	for {
		it, err := r.Next()
		if err != nil {
			return evs, nil, err
		}
		switch v := it.(type) {
		case *recording.Tick:
			c := *v
			c.Records = slices.Clone(v.Records)
			c.Shutdown = slices.Clone(v.Shutdown)
			c.Players = slices.Clone(v.Players)
			evs = append(evs, event{tick: &c})
		case *recording.Checkpoint:
			c := *v
			c.Types = slices.Clone(v.Types)
			evs = append(evs, event{cp: &c})
		case *recording.Pacing:
			c := *v
			evs = append(evs, event{pacing: &c})
		case *recording.NetFigures:
			c := *v
			evs = append(evs, event{net: &c})
		case *recording.Presents:
			c := *v
			evs = append(evs, event{pres: &c})
		case *recording.End:
			e := *v
			_, err := r.Next()
			return evs, &e, err
		}
	}
}

// countItems reads to the first error and counts ticks and checkpoints.
func countItems(r *recording.Reader) (int, error) {
	n := 0
	for {
		it, err := r.Next()
		if err != nil {
			return n, err
		}
		if _, ok := it.(*recording.End); !ok {
			n++
		}
	}
}

func (e event) kind() string {
	switch {
	case e.tick != nil:
		return "a tick"
	case e.cp != nil:
		return "a checkpoint"
	case e.pacing != nil:
		return "pacing"
	case e.net != nil:
		return "net figures"
	case e.pres != nil:
		return "presents"
	}
	return "nothing"
}

// diffEvents describes the first difference between two event lists.
func diffEvents(got, want []event) string {
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		switch {
		case w.tick != nil && g.tick != nil:
			if p := diff(reflect.ValueOf(*g.tick), reflect.ValueOf(*w.tick), "Tick"); p != "" {
				return fmt.Sprintf("event %d: %s", i, p)
			}
		case w.cp != nil && g.cp != nil:
			if p := diff(reflect.ValueOf(*g.cp), reflect.ValueOf(*w.cp), "Checkpoint"); p != "" {
				return fmt.Sprintf("event %d: %s", i, p)
			}
		case w.pacing != nil && g.pacing != nil:
			if *g.pacing != *w.pacing {
				return fmt.Sprintf("event %d: pacing %+v, want %+v", i, *g.pacing, *w.pacing)
			}
		case w.net != nil && g.net != nil:
			if *g.net != *w.net {
				return fmt.Sprintf("event %d: net figures %+v, want %+v", i, *g.net, *w.net)
			}
		case w.pres != nil && g.pres != nil:
			if *g.pres != *w.pres {
				return fmt.Sprintf("event %d: presents %+v, want %+v", i, *g.pres, *w.pres)
			}
		default:
			return fmt.Sprintf("event %d: got %s, want %s", i, g.kind(), w.kind())
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("got %d events, want %d", len(got), len(want))
	}
	return ""
}

// diff compares bit for bit (floats by their bits, so NaN payloads and
// negative zero count) and names the first differing field.
func diff(g, w reflect.Value, path string) string {
	switch g.Kind() {
	case reflect.Struct:
		for i := range g.NumField() {
			if p := diff(g.Field(i), w.Field(i), path+"."+g.Type().Field(i).Name); p != "" {
				return p
			}
		}
	case reflect.Slice, reflect.Array:
		if g.Len() != w.Len() {
			return fmt.Sprintf("%s: length %d, want %d", path, g.Len(), w.Len())
		}
		for i := range g.Len() {
			if p := diff(g.Index(i), w.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Pointer:
		if g.IsNil() || w.IsNil() {
			if g.IsNil() != w.IsNil() {
				return fmt.Sprintf("%s: nil %v, want nil %v", path, g.IsNil(), w.IsNil())
			}
			return ""
		}
		return diff(g.Elem(), w.Elem(), path)
	case reflect.Float32, reflect.Float64:
		if math.Float64bits(g.Float()) != math.Float64bits(w.Float()) {
			return fmt.Sprintf("%s: got %v (%#x), want %v (%#x)", path, g.Float(), math.Float64bits(g.Float()),
				w.Float(), math.Float64bits(w.Float()))
		}
	default:
		if !g.Equal(w) {
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
	}
	return ""
}

// randomize fills every field reachable from v with random values, biased
// towards the ends of each type's range.
func randomize(v reflect.Value, rng *rand.Rand) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			randomize(v.Field(i), rng)
		}
	case reflect.Array:
		for i := range v.Len() {
			randomize(v.Index(i), rng)
		}
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.String:
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		v.SetString(string(b))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bitsN := v.Type().Bits()
		x := int64(rng.Uint64())
		switch rng.IntN(4) {
		case 0:
			x = 0
		case 1:
			x = x % 1000
		case 2:
			x = []int64{math.MinInt64, math.MaxInt64, -1}[rng.IntN(3)]
		}
		v.SetInt(x << (64 - bitsN) >> (64 - bitsN))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x := rng.Uint64()
		switch rng.IntN(4) {
		case 0:
			x = 0
		case 1:
			x %= 1000
		case 2:
			x = math.MaxUint64
		}
		v.SetUint(x >> (64 - v.Type().Bits()))
	case reflect.Float64:
		f := math.Float64frombits(rng.Uint64())
		switch rng.IntN(5) {
		case 0:
			f = 0
		case 1:
			f = math.Copysign(0, -1)
		case 2:
			f = float64(rng.IntN(2000)) / 2
		case 3:
			f = math.Float64frombits(0x7ff8_0000_dead_beef) // a NaN with a payload
		}
		v.SetFloat(f)
	default:
		panic(fmt.Sprintf("randomize: %v", v.Type()))
	}
}

// randomTick is a tick whose every field holds a random value the format
// must carry exactly, kinds aside.
func randomTick(rng *rand.Rand, records int) *recording.Tick {
	t := &recording.Tick{}
	randomize(reflect.ValueOf(&t.Update).Elem(), rng)
	randomize(reflect.ValueOf(&t.Timing).Elem(), rng)
	t.Update.Kind %= timing.NumKinds
	for _, p := range []any{&t.InputStart, &t.InputEnd, &t.Polls, &t.Stop, &t.Mailbox, &t.Futures} {
		randomize(reflect.ValueOf(p).Elem(), rng)
	}
	t.Presented = rng.IntN(4) // often as the previous tick's
	if rng.IntN(50) == 0 {
		t.Presented = rng.IntN(1 << 30)
	}
	for range records {
		var r input.Record
		randomize(reflect.ValueOf(&r).Elem(), rng)
		r.Kind = input.RecordKind(1 + uint8(r.Kind)%uint8(input.RecordFullscreen))
		t.Records = append(t.Records, r)
	}
	for range rng.IntN(3) {
		var q recording.ShutdownRequest
		randomize(reflect.ValueOf(&q).Elem(), rng)
		t.Shutdown = append(t.Shutdown, q)
	}
	return t
}

// frameLen is the size of a chunk's frame: length, its checksum, the
// payload's checksum.
const frameLen = 12

// chunkOffsets lists where each chunk frame starts, after the magic
// number and the version.
func chunkOffsets(t testing.TB, data []byte) []int {
	t.Helper()
	var offs []int
	for at := 5; at < len(data); {
		offs = append(offs, at)
		if at+frameLen > len(data) {
			break
		}
		at += frameLen + int(binary.LittleEndian.Uint32(data[at:]))
	}
	return offs
}

// errorIs checks that err wraps want and is a *recording.Error whose text
// holds every fragment.
func errorIs(t *testing.T, err, want error, fragments ...string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("got error %v, want one wrapping %v", err, want)
	}
	var re *recording.Error
	if !errors.As(err, &re) {
		t.Fatalf("got error %T %v, want a *recording.Error", err, err)
	}
	for _, f := range fragments {
		if !bytes.Contains([]byte(err.Error()), []byte(f)) {
			t.Errorf("error %q does not say %q", err, f)
		}
	}
}

// pipe is an in-memory file one side writes and the other reads, as a
// follower reads a recording that grows: a read past the end returns
// io.EOF, and a later one sees what was written since. Each write is
// announced on wrote.
type pipe struct {
	mu    sync.Mutex
	data  []byte
	wrote chan int
}

func newPipe() *pipe { return &pipe{wrote: make(chan int, 1024)} }

func (p *pipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	p.data = append(p.data, b...)
	n := len(p.data)
	p.mu.Unlock()
	p.wrote <- n
	return len(b), nil
}

type pipeReader struct {
	p     *pipe
	off   int
	limit int // the bytes the reader may see; -1 for all
}

func (r *pipeReader) Read(b []byte) (int, error) {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	end := len(r.p.data)
	if r.limit >= 0 {
		end = min(end, r.limit)
	}
	if r.off >= end {
		return 0, io.EOF
	}
	n := copy(b, r.p.data[r.off:end])
	r.off += n
	return n, nil
}

// reveal lets the reader see n more bytes, and reports whether there were
// any to reveal.
func (r *pipeReader) reveal(n int) bool {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	if r.limit >= len(r.p.data) {
		return false
	}
	r.limit = min(r.limit+n, len(r.p.data))
	return true
}

func itoa(n int) string { return strconv.Itoa(n) }

// matchHeader is the header of a networked match's recording: two
// players of five actions, recorded by peer 1.
var matchHeader = func() recording.Header {
	h := testHeader
	h.Net = &recording.Net{Players: 2, Actions: 5, Peer: 1}
	return h
}()

// makeMatch makes the confirmed timeline of a match as a framework
// records it: a tick per confirmed tick on the step's timeline, whose
// players' action states change now and then (presses, held time,
// analog values, some whole and some not), a checkpoint every `every`
// ticks, a pacing item now and then and net figures every 60 ticks.
func makeMatch(seed uint64, ticks, every int, net recording.Net) []event {
	rng := rand.New(rand.NewPCG(seed, 9))
	nrng := rand.New(rand.NewPCG(seed, 10)) // the net figures' own: version 7's matches are made without them
	step := time.Second / 60
	in := make([]input.Stats, net.Players*net.Actions)
	var evs []event
	for k := range ticks {
		for i := range in {
			if rng.IntN(8) != 0 {
				continue
			}
			st := &in[i]
			st.WasDown = st.Down
			st.Down = rng.IntN(2) == 0
			st.Presses, st.Releases = rng.IntN(2), rng.IntN(2)
			st.Held = time.Duration(rng.Int64N(int64(step)))
			st.StartValue = st.Value
			switch rng.IntN(3) {
			case 0:
				st.Value = 0
			case 1:
				st.Value = 1
			default:
				st.Value = rng.Float32()*2 - 1
			}
			st.Mean, st.Peak = st.Value/2, -st.Value
		}
		t := &recording.Tick{
			Update: timing.Update{Kind: timing.FixedUpdate, Number: uint64(k), Delta: step, Steps: 1, Final: true,
				Start: timing.Instant(k) * timing.Instant(step), End: timing.Instant(k+1) * timing.Instant(step)},
			Players: slices.Clone(in),
		}
		t.Timing.Step = step
		t.InputStart, t.InputEnd = t.Update.Start, t.Update.End
		evs = append(evs, event{tick: t})
		if every > 0 && (k+1)%every == 0 {
			evs = append(evs, event{cp: &recording.Checkpoint{Tick: uint64(k), Hash: rng.Uint64()}})
		}
		if rng.IntN(10) == 0 {
			evs = append(evs, event{pacing: &recording.Pacing{Update: uint64(k + 3), Tick: int64(k + 2),
				Resimulated: rng.IntN(9), ResimulationTime: time.Duration(rng.Int64N(1e6)),
				Held: step * time.Duration(rng.IntN(2)), Advantage: time.Duration(rng.Int64N(2e7) - 1e7)}})
		}
		if k%60 == 59 {
			evs = append(evs, event{net: &recording.NetFigures{Update: uint64(k + 2), Tick: int64(k + 3), Confirmed: int64(k - 1),
				RTT: time.Duration(nrng.Int64N(2e8)), BytesSent: nrng.Uint64(), BytesReceived: uint64(k) * 100, Sent: uint64(k), Received: uint64(k - 1),
				Rollbacks: nrng.Uint64N(100), Resimulated: nrng.Uint64N(1000), MaxDepth: nrng.IntN(8), Held: nrng.Uint64N(9),
				Resyncs: nrng.IntN(3) - 1, PlayedOn: nrng.IntN(2), SlowedDown: -time.Duration(nrng.Int64N(1e9)), Mispredicted: nrng.Uint64(), Malformed: 1}})
		}
	}
	return evs
}
