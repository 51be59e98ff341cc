package timing_test

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// FuzzPacer drives a pacer with arbitrary clock behaviour (work between
// frames, wake offsets, failed and interrupted waits, jumps backwards) and
// checks the promises that hold whatever the clock does: no call waits more
// than MaxEarlyWakes times, a started frame's next target lies after its
// start and within one interval of it or of the missed target, a phase-kept
// frame aims at the previous Next, and telemetry stays consistent.
func FuzzPacer(f *testing.F) {
	f.Add(uint16(10), uint16(40), []byte{0, 3, 1, 2, 5, 0, 7, 9, 200, 4})
	f.Add(uint16(1), uint16(0), []byte{255, 255, 255, 0, 0, 0, 128, 1})
	f.Add(uint16(16), uint16(64), []byte{9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9})
	f.Fuzz(func(t *testing.T, ivMs, latMs uint16, script []byte) {
		policy := timing.PacingPolicy{
			Interval:    time.Duration(ivMs%1000+1) * time.Millisecond,
			MaxLateness: time.Duration(latMs%4000) * time.Millisecond,
		}
		iv := policy.Interval
		c := &scriptClock{now: at(time.Hour)}
		p, err := timing.NewFramePacer(policy, c, c)
		if err != nil {
			t.Fatal(err)
		}
		var tel timing.Telemetry
		var prev timing.PaceResult
		for len(script) >= 4 {
			op, arg := script[0], binary.LittleEndian.Uint16(script[1:3])
			rule := script[3]
			script = script[4:]
			step := time.Duration(arg) * iv / 256
			switch op % 5 {
			case 0, 1, 2:
				c.now += at(step)
			case 3:
				c.now -= at(step / 4)
			case 4:
				p.Reset()
			}
			switch rule % 6 {
			case 0:
				c.rules = []wakeRule{{offset: step / 8}}
			case 1:
				c.rules = earlyWakes(int(rule%11), iv/16)
			case 2:
				c.rules = []wakeRule{{abs: true, to: c.now + at(step/16), err: errWaitBroken}}
			case 3:
				c.rules = []wakeRule{{abs: true, to: c.now + at(step/16), err: timing.ErrWaitInterrupted}}
			case 4:
				c.rules = []wakeRule{{abs: true, to: c.now - 1}}
			default:
				c.rules = nil
			}
			r := p.PaceUntil(c.now + at(step))
			if r.Waits > timing.MaxEarlyWakes || r.EarlyWakes > r.Waits {
				t.Fatalf("%+v: %d waits, %d early", r, r.Waits, r.EarlyWakes)
			}
			if r.Outcome.Started() && r.Outcome != timing.PaceOverflow {
				if r.Next <= r.Wake || r.Next > r.Wake+at(iv) && r.Next > r.Target+at(iv) {
					t.Fatalf("next target %v not in (wake, max(wake, target)+interval]: %+v", r.Next, r)
				}
				keep := r.Outcome == timing.PaceWaited || r.Outcome == timing.PaceLate ||
					r.Outcome == timing.PaceWaitFailed || r.Outcome == timing.PaceWaitLimit
				if keep && r.Target != prev.Next {
					t.Fatalf("target %v does not follow the previous next %v: %+v after %+v", r.Target, prev.Next, r, prev)
				}
				if keep && r.Lateness > policy.MaxLateness {
					t.Fatalf("kept the phase %v late, beyond %v: %+v", r.Lateness, policy.MaxLateness, r)
				}
			}
			if !r.Outcome.Started() && r.Next != r.Target {
				t.Fatalf("no frame started but the target moved: %+v", r)
			}
			prev = r
			tel.Record(timing.FrameRecord{Accepted: step, Pace: r, Baseline: r.Outcome == timing.PaceBaseline})
		}
		s := tel.Stats()
		if s.WindowFrames > int(s.Frames) || s.WindowPacedFrames > s.WindowFrames {
			t.Fatalf("window counts inconsistent: %+v", s)
		}
		if s.WindowPacedFrames > 0 && !(s.WindowLatenessMin <= s.WindowLatenessMedian && s.WindowLatenessMedian <= s.WindowLatenessP90 &&
			s.WindowLatenessP90 <= s.WindowLatenessP99 && s.WindowLatenessP99 <= s.WindowLatenessMax &&
			s.WindowLatenessMin <= s.WindowLatenessMean && s.WindowLatenessMean <= s.WindowLatenessMax) {
			t.Fatalf("lateness statistics out of order: %+v", s)
		}
		if s.WindowFrames > 0 && !(s.WindowIntervalMin <= s.WindowIntervalMean && s.WindowIntervalMean <= s.WindowIntervalMax) {
			t.Fatalf("interval statistics out of order: %+v", s)
		}
	})
}
