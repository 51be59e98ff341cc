package input_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// backlogFixture is a source that records two edges and a cursor move per
// poll, feeding a queue read by a tick with a handful of actions. With
// analog set it also moves a stick each poll and queries two analog
// actions.
type backlogFixture struct {
	polls   int
	analog  bool
	rec     input.Recorder
	q       *input.Queue
	tick    input.Tick
	snap    input.Snapshot // the platform's, reused
	now     timing.Instant
	actions []input.Action
	sink    int
}

func newBacklogFixture(tb testing.TB, polls int) *backlogFixture {
	return newFixture(tb, polls, false)
}

func newFixture(tb testing.TB, polls int, analog bool) *backlogFixture {
	actions := input.NewActions()
	f := &backlogFixture{polls: polls, analog: analog}
	f.actions = append(f.actions,
		actions.MustRegister("left", input.KeyA, input.KeyLeft),
		actions.MustRegister("right", input.KeyD, input.KeyRight),
		actions.MustRegister("jump", input.KeySpace, input.GamepadA),
		actions.MustRegister("fire", input.MouseLeft))
	if analog {
		f.actions = append(f.actions,
			actions.MustRegisterAxis("move_x", input.GamepadLeftX.Bind(), input.ButtonAxis(input.KeyA, input.KeyD)),
			actions.MustRegisterAxis("throttle", input.GamepadRightTrigger.Bind(), input.ButtonAxis(input.ButtonNone, input.KeySpace)))
	}
	opts := input.DefaultPollingOptions()
	opts.Capacity = polls
	opts.Spacing = 0
	q, err := input.NewQueue(actions, opts)
	if err != nil {
		tb.Fatal(err)
	}
	f.q = q
	q.Start(0)
	return f
}

// Poll makes the fixture its own source.
func (f *backlogFixture) Poll(now timing.Instant, dst *input.Snapshot) { f.rec.Flush(now, dst) }

// poll is the platform's poll at now: the recorder's records into the
// fixture's snapshot, handed to the queue.
func (f *backlogFixture) poll(now timing.Instant) {
	f.Poll(now, &f.snap)
	f.q.PushPoll(now, &f.snap)
}

// fill pushes f.polls polls of three records each.
func (f *backlogFixture) fill() {
	for i := range f.polls {
		f.now += 4 * ms
		b := input.KeyA
		if i%2 == 1 {
			b = input.KeySpace
		}
		f.rec.Press(f.now, b)
		f.rec.Cursor(f.now, float64(i), float64(f.polls-i))
		if f.analog {
			f.rec.Axis(f.now, input.GamepadLeftX, float32(i%9-4)/4)
		}
		f.rec.Release(f.now+ms, b)
		f.poll(f.now + ms)
	}
}

// round fills the backlog, takes it and queries every action.
func (f *backlogFixture) round() {
	f.fill()
	f.q.TakeAll(f.now+2*ms, &f.tick)
	for _, a := range f.actions {
		s := f.tick.Action(a)
		f.sink += s.Presses + int(f.tick.SimulationTime(a, 16*time.Millisecond))
	}
	f.sink += len(f.tick.Records())
}
