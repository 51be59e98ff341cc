package input_test

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/timing"
)

// want is the expected summary of the action "act" in one tick.
type want struct {
	down, wasDown      bool
	presses, releases  int
	held               time.Duration
	start, end         timing.Instant
	records            int // -1 to skip
	synthetic          int // synthetic records expected
	motionX, scrollY   float64
	text               string
	focused            bool
	checkFocus         bool
	windowW, windowH   int
	checkWindow        bool
	pending            int // polls pending after the take
	simTime, simDelta  time.Duration
	checkSimulationSec bool
}

// take is one update: Backlog takes at now, Timestamped the span [start, end).
type take struct {
	now, start, end timing.Instant
	pollFirst       []timing.Instant // polls completed just before the take
	want            want
}

func TestTicks(t *testing.T) {
	tests := []struct {
		name     string
		delivery input.Delivery
		capacity int
		script   func(s *inputtest.Script)
		polls    []timing.Instant // poll instants, all before the first take
		takes    []take
		stats    func(t *testing.T, s input.QueueStats)
	}{
		{
			name: "hold spanning three ticks",
			script: func(s *inputtest.Script) {
				s.Press(10*ms, input.KeySpace).Release(50*ms, input.KeySpace)
			},
			polls: []timing.Instant{12 * ms},
			takes: []take{
				{now: 20 * ms, want: want{down: true, presses: 1, held: 10 * time.Millisecond, start: 0, end: 20 * ms, records: 1}},
				{now: 40 * ms, want: want{down: true, wasDown: true, held: 20 * time.Millisecond, start: 20 * ms, end: 40 * ms, records: 0}},
				{now: 60 * ms, pollFirst: []timing.Instant{55 * ms}, want: want{wasDown: true, releases: 1, held: 10 * time.Millisecond, start: 40 * ms, end: 60 * ms, records: 1}},
			},
		},
		{
			name: "tap inside one tick is not lost",
			script: func(s *inputtest.Script) {
				s.Tap(3*ms, input.KeySpace, 4*time.Millisecond)
			},
			polls: []timing.Instant{10 * ms},
			takes: []take{
				{now: 16 * ms, want: want{presses: 1, releases: 1, held: 4 * time.Millisecond, end: 16 * ms, records: 2}},
				{now: 32 * ms, want: want{start: 16 * ms, end: 32 * ms, records: 0}},
			},
		},
		{
			name: "two taps and a second bound button",
			script: func(s *inputtest.Script) {
				s.Tap(1*ms, input.KeySpace, time.Millisecond).
					Press(4*ms, input.GamepadA).
					Tap(5*ms, input.KeySpace, time.Millisecond). // GamepadA holds the action down
					Release(8*ms, input.GamepadA)
			},
			polls: []timing.Instant{9 * ms},
			takes: []take{
				{now: 10 * ms, want: want{presses: 2, releases: 2, held: 5 * time.Millisecond, end: 10 * ms, records: 6}},
			},
		},
		{
			name: "focus loss while a key is down releases it",
			script: func(s *inputtest.Script) {
				s.Focus(0, true).Press(5*ms, input.KeySpace).Focus(15*ms, false).Release(17*ms, input.KeySpace)
			},
			polls: []timing.Instant{18 * ms},
			takes: []take{
				{now: 20 * ms, want: want{presses: 1, releases: 1, held: 10 * time.Millisecond, end: 20 * ms, records: 4, synthetic: 1, checkFocus: true}},
			},
		},
		{
			name:     "full backlog coalesces without losing edges",
			capacity: 2,
			script: func(s *inputtest.Script) {
				for i := range 5 {
					s.Tap(timing.Instant(i)*10*ms+ms, input.KeySpace, time.Millisecond)
				}
				s.Cursor(45*ms, 10, 0).Scroll(46*ms, 0, 1).Text(47*ms, "hé")
			},
			polls: []timing.Instant{10 * ms, 20 * ms, 30 * ms, 40 * ms, 50 * ms},
			takes: []take{
				{now: 50 * ms, want: want{presses: 5, releases: 5, held: 5 * time.Millisecond, end: 50 * ms, records: 14, motionX: 10, scrollY: 1, text: "hé"}},
			},
			stats: func(t *testing.T, s input.QueueStats) {
				if s.Polls != 5 || s.Coalesced != 3 || s.Records != 14 || s.Pending != 0 || s.PendingRecords != 0 {
					t.Errorf("stats = %v; want 5 polls, 3 coalesced, 14 records, none pending", s)
				}
			},
		},
		{
			name: "backlog: a recovery batch delivers edges once",
			script: func(s *inputtest.Script) {
				s.Tap(100*ms, input.KeySpace, 50*time.Millisecond).Press(400*ms, input.KeySpace)
			},
			polls: []timing.Instant{200 * ms, 450 * ms},
			takes: []take{
				// Seed 000: the first update of the batch takes the whole backlog.
				{now: 500 * ms, want: want{down: true, presses: 2, releases: 1, held: 150 * time.Millisecond, end: 500 * ms, records: 3,
					simDelta: 20 * time.Millisecond, simTime: 6 * time.Millisecond}},
				// The second update at the same instant sees only the persistent State.
				{now: 500 * ms, want: want{down: true, wasDown: true, start: 500 * ms, end: 500 * ms, records: 0,
					simDelta: 100 * time.Millisecond, simTime: 100 * time.Millisecond}},
			},
		},
		{
			name: "backlog: a poll completed during a batch reaches only the later update",
			script: func(s *inputtest.Script) {
				s.Tap(10*ms, input.KeySpace, 5*time.Millisecond).Tap(510*ms, input.KeySpace, 5*time.Millisecond)
			},
			polls: []timing.Instant{100 * ms},
			takes: []take{
				{now: 500 * ms, want: want{presses: 1, releases: 1, held: 5 * time.Millisecond, end: 500 * ms, records: 2}},
				// Concurrent mode: the platform polled while the first update ran.
				{now: 520 * ms, pollFirst: []timing.Instant{518 * ms}, want: want{presses: 1, releases: 1, held: 5 * time.Millisecond, start: 500 * ms, end: 520 * ms, records: 2}},
				{now: 520 * ms, want: want{start: 520 * ms, end: 520 * ms, records: 0}},
			},
		},
		{
			name:     "timestamped: a stall's input lands on the steps that cover it",
			delivery: input.Timestamped,
			script: func(s *inputtest.Script) {
				s.Tap(5*ms, input.KeySpace, 10*time.Millisecond) // step 1
				s.Press(45*ms, input.KeySpace)                   // step 3, held into step 4
				s.Release(65*ms, input.KeySpace)                 // step 4
				s.Press(90*ms, input.KeySpace)                   // the last step
			},
			polls: []timing.Instant{95 * ms}, // one poll after a 95 ms stall
			takes: []take{
				{start: 0, end: 20 * ms, want: want{presses: 1, releases: 1, held: 10 * time.Millisecond, end: 20 * ms, records: 2, pending: 1}},
				{start: 20 * ms, end: 40 * ms, want: want{start: 20 * ms, end: 40 * ms, records: 0, pending: 1}},
				{start: 40 * ms, end: 60 * ms, want: want{down: true, presses: 1, held: 15 * time.Millisecond, start: 40 * ms, end: 60 * ms, records: 1, pending: 1}},
				{start: 60 * ms, end: 80 * ms, want: want{wasDown: true, releases: 1, held: 5 * time.Millisecond, start: 60 * ms, end: 80 * ms, records: 1, pending: 1}},
				{start: 80 * ms, end: 100 * ms, want: want{down: true, presses: 1, held: 10 * time.Millisecond, start: 80 * ms, end: 100 * ms, records: 1, pending: 0}},
			},
		},
		{
			name:     "timestamped: records before a skipped span are delivered late, not lost",
			delivery: input.Timestamped,
			script: func(s *inputtest.Script) {
				s.Tap(30*ms, input.KeySpace, 2*time.Millisecond).WindowSize(31*ms, 800, 600)
			},
			polls: []timing.Instant{40 * ms},
			takes: []take{
				{start: 0, end: 20 * ms, want: want{end: 20 * ms, records: 0, pending: 1}},
				// 20..60 ms dropped by the scheduler; the tap still arrives.
				{start: 60 * ms, end: 80 * ms, want: want{presses: 1, releases: 1, start: 60 * ms, end: 80 * ms, records: 3, checkWindow: true, windowW: 800, windowH: 600}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			actions := input.NewActions()
			act := actions.MustRegister("act", input.KeySpace, input.GamepadA)
			opts := input.DefaultPollingOptions()
			opts.Delivery = tc.delivery
			if tc.capacity > 0 {
				opts.Capacity = tc.capacity
			}
			q, err := input.NewQueue(actions, opts)
			if err != nil {
				t.Fatal(err)
			}
			q.Start(0)
			src := inputtest.NewScript()
			tc.script(src)
			var snap input.Snapshot
			for _, p := range tc.polls {
				src.Poll(p, &snap)
				q.Push(&snap)
			}
			var tick input.Tick
			for i, tk := range tc.takes {
				for _, p := range tk.pollFirst {
					src.Poll(p, &snap)
					q.Push(&snap)
				}
				q.Take(tk.now, tk.start, tk.end, &tick)
				w := tk.want
				got := tick.Action(act)
				wantStats := input.Stats{Down: w.down, WasDown: w.wasDown, Presses: w.presses, Releases: w.releases, Held: w.held,
					Value: b2f(w.down), StartValue: b2f(w.wasDown), Peak: b2f(w.wasDown || w.presses > 0), Mean: b2f(w.down)}
				if iv := tick.Observed(); iv > 0 {
					wantStats.Mean = float32(float64(w.held) / float64(iv))
				}
				if got != wantStats {
					t.Errorf("take %d: stats %+v, want %+v", i, got, wantStats)
				}
				if tick.Start() != w.start || tick.End() != w.end {
					t.Errorf("take %d: interval [%v, %v), want [%v, %v)", i, tick.Start(), tick.End(), w.start, w.end)
				}
				if w.records >= 0 && len(tick.Records()) != w.records {
					t.Errorf("take %d: %d records %v, want %d", i, len(tick.Records()), tick.Records(), w.records)
				}
				syn := 0
				for _, r := range tick.Records() {
					if r.Synthetic {
						syn++
					}
				}
				if syn != w.synthetic {
					t.Errorf("take %d: %d synthetic records, want %d", i, syn, w.synthetic)
				}
				if dx, _ := tick.Motion(); dx != w.motionX {
					t.Errorf("take %d: motion x %v, want %v", i, dx, w.motionX)
				}
				if _, dy := tick.Scroll(); dy != w.scrollY {
					t.Errorf("take %d: scroll y %v, want %v", i, dy, w.scrollY)
				}
				if got := tick.Text(); got != w.text {
					t.Errorf("take %d: text %q, want %q", i, got, w.text)
				}
				if got := string(tick.AppendText(nil)); got != w.text {
					t.Errorf("take %d: AppendText %q, want %q", i, got, w.text)
				}
				if w.checkFocus && tick.Window().Focused != w.focused {
					t.Errorf("take %d: focused %v, want %v", i, tick.Window().Focused, w.focused)
				}
				if ww, wh := tick.Window().Size.Width, tick.Window().Size.Height; w.checkWindow && (ww != w.windowW || wh != w.windowH) {
					t.Errorf("take %d: window %dx%d, want %dx%d", i, ww, wh, w.windowW, w.windowH)
				}
				if got := q.Pending(); got != w.pending {
					t.Errorf("take %d: %d polls pending, want %d", i, got, w.pending)
				}
				if w.simDelta > 0 {
					if got := tick.SimulationTime(act, w.simDelta); got != w.simTime {
						t.Errorf("take %d: SimulationTime(%v) = %v, want %v", i, w.simDelta, got, w.simTime)
					}
				}
			}
			if tc.stats != nil {
				tc.stats(t, q.Stats())
			}
		})
	}
}

func TestPollSpacing(t *testing.T) {
	opts := input.DefaultPollingOptions()
	opts.Spacing = 4 * time.Millisecond
	q, err := input.NewQueue(nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	src := inputtest.NewScript()
	steps := []struct {
		now  timing.Instant
		want bool
	}{{0, true}, {1 * ms, false}, {3 * ms, false}, {4 * ms, true}, {7 * ms, false}, {9 * ms, true}}
	var snap input.Snapshot
	for _, s := range steps {
		got := q.PollDue(s.now)
		if got != s.want {
			t.Errorf("PollDue at %v = %v, want %v", s.now, got, s.want)
		}
		if got {
			src.Poll(s.now, &snap)
			q.PushPoll(s.now, &snap)
		}
	}
	if got, want := q.NextPollAt(), 13*ms; got != want {
		t.Errorf("NextPollAt = %v, want %v", got, want)
	}
	if got := q.Stats().Polls; got != 3 {
		t.Errorf("polls = %d, want 3", got)
	}
}

func TestPollingOptionsValidate(t *testing.T) {
	tests := []struct {
		name string
		opts input.PollingOptions
		want []string
	}{
		{"defaults", input.DefaultPollingOptions(), nil},
		{"zero spacing", input.PollingOptions{Capacity: 1}, nil},
		{"zero value", input.PollingOptions{}, []string{"Capacity 0 is out of range; allowed: 1 to 65536"}},
		{"everything wrong", input.PollingOptions{Spacing: -1, Capacity: 1 << 20, Delivery: 7},
			[]string{"Spacing -1ns is out of range; allowed: 0 to 1s", "Capacity 1048576", "Delivery 7"}},
		{"spacing too long", input.PollingOptions{Spacing: 2 * time.Second, Capacity: 4}, []string{"Spacing 2s"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opts.Validate()
			if (err == nil) != (len(tc.want) == 0) {
				t.Fatalf("Validate() = %v, want errors %v", err, tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if _, qerr := input.NewQueue(nil, tc.opts); (qerr == nil) != (err == nil) {
				t.Errorf("NewQueue error %v, Validate error %v: want the same verdict", qerr, err)
			}
		})
	}
}

func TestDelivery(t *testing.T) {
	tests := []struct {
		d     input.Delivery
		fixed bool
		ok    bool
	}{
		{input.Backlog, false, true},
		{input.Backlog, true, true},
		{input.Timestamped, true, true},
		{input.Timestamped, false, false},
		{input.Delivery(9), true, false},
	}
	for _, tc := range tests {
		err := input.ValidateDelivery(tc.d, tc.fixed)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateDelivery(%v, fixed=%v) = %v, want ok=%v", tc.d, tc.fixed, err, tc.ok)
		}
	}
	if err := input.ValidateDelivery(input.Timestamped, false); !errors.Is(err, input.ErrTimestampedNeedsFixedSteps) {
		t.Errorf("error %v, want ErrTimestampedNeedsFixedSteps", err)
	}
	for _, d := range []input.Delivery{input.Backlog, input.Timestamped} {
		text, err := d.MarshalText()
		var back input.Delivery
		if err != nil || back.UnmarshalText(text) != nil || back != d {
			t.Errorf("%v does not round-trip through text (%q, %v)", d, text, err)
		}
	}
	if _, err := input.ParseDelivery("stamped"); err == nil || !strings.Contains(err.Error(), `"timestamped"`) {
		t.Errorf("ParseDelivery(stamped) error %v, want the valid values listed", err)
	}
}

// TestConcurrentHandoff polls on one goroutine and takes on another, as the
// concurrent runtime does; run it with -race.
func TestConcurrentHandoff(t *testing.T) {
	actions := input.NewActions()
	act := actions.MustRegister("act", input.KeySpace)
	opts := input.DefaultPollingOptions()
	opts.Capacity = 4
	opts.Spacing = 0
	q, err := input.NewQueue(actions, opts)
	if err != nil {
		t.Fatal(err)
	}
	q.Start(0)
	const taps = 500
	src := inputtest.NewScript()
	for i := range taps {
		src.Tap(timing.Instant(i)*ms, input.KeySpace, time.Millisecond/2)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { // platform thread
		defer close(done)
		var snap input.Snapshot
		for i := range taps + 1 {
			now := timing.Instant(i) * ms
			src.Poll(now, &snap)
			q.PushPoll(now, &snap)
		}
	})
	var tick input.Tick
	presses, releases := 0, 0
	var now timing.Instant
	for finished := false; !finished; {
		select {
		case <-done:
			finished = true
		default:
		}
		now += ms / 4
		q.TakeAll(now, &tick)
		presses += tick.Presses(act)
		releases += tick.Releases(act)
	}
	wg.Wait()
	q.TakeAll(now+taps*ms, &tick)
	presses += tick.Presses(act)
	releases += tick.Releases(act)
	if presses != taps || releases != taps {
		t.Errorf("presses %d, releases %d; want %d each", presses, releases, taps)
	}
	if s := q.Stats(); s.Records != 2*taps || s.PendingRecords != 0 {
		t.Errorf("stats %v; want %d records, none pending", s, 2*taps)
	}
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// TestQueueNeverCallsOut: the platform hands the queue each poll's
// records; no method of the queue takes a source (or any other interface
// or function) to call back into during a poll.
func TestQueueNeverCallsOut(t *testing.T) {
	qt := reflect.TypeFor[*input.Queue]()
	for i := range qt.NumMethod() {
		m := qt.Method(i)
		for j := 1; j < m.Type.NumIn(); j++ { // 0 is the receiver
			if in := m.Type.In(j); in.Kind() == reflect.Interface || in.Kind() == reflect.Func {
				t.Errorf("Queue.%s takes a %v: the queue would call out to it", m.Name, in)
			}
		}
	}
}
