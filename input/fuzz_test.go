package input_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

var fuzzButtons = [...]input.Button{input.KeySpace, input.KeyA, input.MouseLeft, input.GamepadA}

// FuzzQueue feeds random event streams, cut into random polls, through a
// queue with a random backlog capacity and takes random updates under both
// delivery policies. Every record must be delivered exactly once and in
// order, per-tick counts must match the records, consecutive ticks must
// chain, and the summaries of a button action and of an analog action
// (stick, trigger and keys) must stay consistent: presses minus releases
// equal to the change in down, held time within the interval, values and
// simulation time within range.
func FuzzQueue(f *testing.F) {
	f.Add([]byte{0, 6, 8, 6, 7, 1, 6, 7}, uint8(1), false)
	f.Add([]byte{0, 5, 1, 6, 0, 6, 1, 6, 0, 6, 7, 7, 7}, uint8(2), true)
	f.Add([]byte{0, 4, 6, 4, 0, 2, 3, 6, 7, 11, 14, 255, 63, 6, 7}, uint8(3), false)
	f.Add([]byte{0, 13, 0, 21, 8, 6, 29, 7, 61, 7, 1, 9, 6, 45, 7, 127, 15, 7}, uint8(1), true)
	f.Add([]byte{16, 8, 40, 5, 6, 5, 6, 5, 6, 24, 6, 71, 135, 199, 4, 6, 12, 7}, uint8(4), true)
	f.Add([]byte{27, 51, 13, 51, 21, 147, 6, 0, 29, 179, 6, 7, 8, 13, 51, 243, 13, 27, 6, 7, 31, 7}, uint8(2), false)
	f.Add([]byte{27, 51, 211, 13, 6, 88, 13, 115, 51, 6, 7, 4, 6, 7, 27, 13, 7}, uint8(3), true)
	f.Fuzz(func(t *testing.T, ops []byte, capacity uint8, timestamped bool) {
		actions := input.NewActions()
		all := actions.MustRegister("all", fuzzButtons[:]...)
		analog := actions.MustRegisterAxis("analog", input.GamepadLeftX.Bind(), input.GamepadRightTrigger.Bind().Inverted(),
			input.ButtonAxis(input.KeyA, input.KeySpace))
		opts := input.DefaultPollingOptions()
		opts.Capacity = int(capacity%6) + 1
		if timestamped {
			opts.Delivery = input.Timestamped
		}
		q, err := input.NewQueue(actions, opts)
		if err != nil {
			t.Fatal(err)
		}
		q.Start(0)
		var (
			rec       input.Recorder
			snap      input.Snapshot
			tick      input.Tick
			now       timing.Instant
			spanEnd   timing.Instant
			pushed    []input.Record
			delivered []input.Record
			prevState input.State
			pushes    int
		)
		push := func() {
			rec.Flush(now, &snap)
			pushed = append(pushed, snap.Records...)
			q.Push(&snap)
			pushes++
		}
		check := func(i int, end timing.Instant) {
			recs := tick.Records()
			delivered = append(delivered, recs...)
			if tick.StartState() != prevState {
				t.Fatalf("tick %d: start state %+v, want the previous end state %+v", i, tick.StartState(), prevState)
			}
			st := prevState
			for _, r := range recs {
				if timestamped && r.Time >= end {
					t.Fatalf("tick %d: record %v at or after the span end %v", i, r, end)
				}
				st.Apply(&r)
			}
			if st != tick.State() {
				t.Fatalf("tick %d: state %+v, want the records applied: %+v", i, tick.State(), st)
			}
			prevState = st
			sumPresses := 0
			for _, b := range fuzzButtons {
				s := tick.Button(b)
				var p, r int
				for _, x := range recs {
					if x.Button == b && x.Kind == input.RecordPress {
						p++
					}
					if x.Button == b && x.Kind == input.RecordRelease {
						r++
					}
				}
				if s.Presses != p || s.Releases != r {
					t.Fatalf("tick %d %v: presses %d releases %d, records say %d and %d", i, b, s.Presses, s.Releases, p, r)
				}
				if s.Down != tick.State().Down.Has(b) || s.WasDown != tick.StartState().Down.Has(b) {
					t.Fatalf("tick %d %v: down %v (state %v), was down %v (start state %v)", i, b, s.Down, tick.State().Down.Has(b), s.WasDown, tick.StartState().Down.Has(b))
				}
				if s.Held < 0 || s.Held > tick.Observed() {
					t.Fatalf("tick %d %v: held %v outside [0, %v]", i, b, s.Held, tick.Observed())
				}
				sumPresses += p
			}
			a := tick.Action(all)
			if a.Presses > sumPresses || a.Held < 0 || a.Held > tick.Observed() {
				t.Fatalf("tick %d: action %+v with %d button presses and interval %v", i, a, sumPresses, tick.Observed())
			}
			if d := tick.SimulationTime(all, 20*time.Millisecond); d < 0 || d > 20*time.Millisecond {
				t.Fatalf("tick %d: SimulationTime %v outside [0, 20ms]", i, d)
			}
			for _, act := range []input.Action{all, analog} {
				s := tick.Action(act)
				if s.Presses-s.Releases != b2i(s.Down)-b2i(s.WasDown) || s.Held < 0 || s.Held > tick.Observed() {
					t.Fatalf("tick %d action %d: %+v in an interval of %v", i, act, s, tick.Observed())
				}
				if s.Down != (s.Value != 0) || s.WasDown != (s.StartValue != 0) {
					t.Fatalf("tick %d action %d: down and value disagree: %+v", i, act, s)
				}
				for _, v := range []float32{s.Value, s.StartValue, s.Mean, s.Peak} {
					if !(v >= -1 && v <= 1) {
						t.Fatalf("tick %d action %d: value out of [-1, 1]: %+v", i, act, s)
					}
				}
				if abs32(s.Peak) < abs32(s.Value) || abs32(s.Peak) < abs32(s.StartValue) || abs32(s.Peak) < abs32(s.Mean) {
					t.Fatalf("tick %d action %d: peak below a value: %+v", i, act, s)
				}
				if d := tick.SimulationTime(act, 20*time.Millisecond); d < -20*time.Millisecond || d > 20*time.Millisecond {
					t.Fatalf("tick %d action %d: SimulationTime %v outside [-20ms, 20ms]", i, act, d)
				}
			}
			for ax := input.Axis(1); int(ax) <= input.AxisCount; ax++ {
				lo, hi := ax.Range()
				if v := tick.Axis(ax); !(v >= lo && v <= hi) {
					t.Fatalf("tick %d: %v = %v outside its range", i, ax, v)
				}
			}
		}
		takes := 0
		take := func(arg byte, final bool) {
			if !timestamped {
				q.TakeAll(now, &tick)
				check(takes, now)
				takes++
				return
			}
			start := spanEnd
			switch {
			case final:
				spanEnd = now + 1
			case arg%8 == 7: // the scheduler dropped time
				start += 20 * ms
				spanEnd = start + 5*ms
			default:
				spanEnd = start + timing.Instant(arg%8)*5*ms
			}
			q.TakeSpan(start, spanEnd, &tick)
			check(takes, spanEnd)
			takes++
		}
		for _, op := range ops {
			arg := op >> 3
			b := fuzzButtons[arg%4]
			switch op % 8 {
			case 0:
				rec.Press(now, b)
			case 1:
				rec.Release(now, b)
			case 2:
				rec.Cursor(now, float64(arg), float64(arg%5))
			case 3:
				switch arg % 4 {
				case 0:
					rec.Scroll(now, 0, 1)
				case 1:
					rec.Text(now, 'a'+rune(arg%26))
				case 2:
					// Three bits pick the axis (0 and 7 are invalid); the
					// clock picks a value in [-1, 1], clamped for triggers.
					rec.Axis(now, input.Axis(arg/4), float32(int(now/ms)%17-8)/8)
				case 3:
					rec.Gamepad(now, !rec.State().Gamepad.Connected)
				}
			case 4:
				// Half the time focus, which releases what is down; the
				// other window facts otherwise.
				w := rec.State().Window
				switch arg % 8 {
				case 1:
					rec.ContentScale(now, float32(arg%3), 1)
				case 3:
					rec.WindowHidden(now, !w.Hidden)
				case 5:
					rec.WindowMinimized(now, !w.Minimized)
				case 7:
					rec.WindowFullscreen(now, !w.Fullscreen)
				default:
					rec.Focus(now, !w.Focused)
				}
			case 5:
				now += timing.Instant(arg) * ms / 2
			case 6:
				push()
			case 7:
				take(arg, false)
			}
		}
		push()
		take(0, true)
		if !slices.Equal(delivered, pushed) {
			t.Fatalf("delivered %d records, pushed %d; the sequences differ:\ndelivered %v\npushed    %v", len(delivered), len(pushed), delivered, pushed)
		}
		s := q.Stats()
		if s.Polls != uint64(pushes) || s.Records != uint64(len(pushed)) || s.Pending != 0 || s.PendingRecords != 0 || s.Ticks != uint64(takes) {
			t.Fatalf("stats %v; want %d polls, %d records, %d ticks, nothing pending", s, pushes, len(pushed), takes)
		}
	})
}

// FuzzParseButton: button names come from config files. Any text either
// parses to a valid button whose canonical name parses back to it, or fails
// with a NameError whose suggestions all parse.
func FuzzParseButton(f *testing.F) {
	for _, s := range []string{"Space", "spcae", "MouseLeft", "gamepad a", "", " Esc ", "F25", "KP0", "é", "LeftShfit"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		b, err := input.ParseButton(name)
		if err == nil {
			if !b.Valid() {
				t.Fatalf("ParseButton(%q) = invalid button %d without an error", name, b)
			}
			if back, err := input.ParseButton(b.String()); err != nil || back != b {
				t.Fatalf("canonical name %q of %q parses to %v, %v", b.String(), name, back, err)
			}
			return
		}
		var ne *input.NameError
		if !errors.As(err, &ne) || ne.Name != name {
			t.Fatalf("ParseButton(%q) error %v, want a NameError naming the input", name, err)
		}
		if len(ne.Suggestions) > 3 {
			t.Fatalf("%d suggestions, want at most 3", len(ne.Suggestions))
		}
		for _, s := range ne.Suggestions {
			if _, err := input.ParseButton(s); err != nil {
				t.Fatalf("suggestion %q does not parse: %v", s, err)
			}
		}
	})
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// FuzzParseAxisBinding: axis bindings come from config files. Any text
// either parses to a valid binding whose canonical text parses back to the
// same binding, or fails; a NameError's suggestions all parse.
func FuzzParseAxisBinding(f *testing.F) {
	for _, s := range []string{"GamepadLeftX", "GamepadLeftY invert deadzone=0.25", "A/D", "/Down", "Up/", "W", "", "/",
		"A/A", "GamepadLeftX deadzone=1", "A/D deadzone=0.1", "gamepadrt  INVERT", "Spcae/Entr", "GamepadLeftX deadzone=1e-45"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		b, err := input.ParseAxisBinding(text)
		if err != nil {
			var ne *input.NameError
			if errors.As(err, &ne) {
				for _, s := range ne.Suggestions {
					if _, err := input.ParseAxisBinding(s); err != nil {
						t.Fatalf("suggestion %q for %q does not parse: %v", s, text, err)
					}
				}
			}
			return
		}
		if err := b.Validate(); err != nil {
			t.Fatalf("ParseAxisBinding(%q) = %+v, which does not validate: %v", text, b, err)
		}
		back, err := input.ParseAxisBinding(b.String())
		if err != nil || back != b {
			t.Fatalf("canonical text %q of %q parses to %+v, %v; want %+v", b.String(), text, back, err, b)
		}
	})
}
