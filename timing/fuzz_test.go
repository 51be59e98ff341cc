package timing_test

import (
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// fuzzOptions builds valid options from fuzz bytes.
func fuzzOptions(b [12]byte, hook timing.DebtHook) timing.Options {
	o := timing.DefaultOptions()
	o.Mode = timing.Mode(b[0] % 2)
	o.Recovery = timing.Recovery(b[1] % 3)
	o.Interval = time.Duration(b[2]%40) * time.Millisecond / 2
	o.FixedStep = time.Duration(1+int(b[3])*int(b[3]%7+1)) * 97 * time.Microsecond
	if b[4]%3 == 0 {
		o.Rate = timing.Rate{Num: int64(b[5]) + 1, Den: int64(b[6]%7) + 1}
	}
	o.MaxFixedUpdates = int(b[7]%8) + 1
	o.RecoveryPrefix = int(b[8]) % (o.MaxFixedUpdates + 1)
	o.RecoveryCap = time.Duration(b[9]%5) * 37 * time.Millisecond
	d := &o.Debt
	f := b[10]
	d.Pacing = f&1 != 0
	d.QuietTicks = f&2 != 0
	d.CoarseCosmetic = f&4 != 0
	d.VariableStep = f&8 != 0
	d.PastCutoff = timing.PastCutoff(f >> 4 % 4)
	if d.PastCutoff >= timing.Resync {
		d.Hook = hook
	}
	d.MaxSpeedUp = 1 + float64(b[11]%8)/4
	d.MaxSlowDown = 1 - float64(b[11]>>3%3)/4
	step := o.FixedStep
	if !o.Rate.IsZero() {
		step = o.Rate.Step()
	}
	d.Cutoff = max(step+1, time.Duration(b[11]>>5+1)*300*time.Millisecond) // +1: the rate step is rounded
	d.SuspendAfter = time.Duration(b[10]>>6) * 2 * time.Second
	return o
}

// FuzzSchedulerLedger drives random clock sequences, option sets and live
// option changes, and checks after every Advance that every nanosecond is
// accounted for exactly, under every policy.
func FuzzSchedulerLedger(f *testing.F) {
	f.Add([]byte("\x01\x00\x00\x9a\x01\x00\x00\x01\x00\x02\x00\x00stall stall stall"))
	f.Add([]byte("\x01\x01\x00\x20\x00\x3b\x00\x01\x01\x01\x00\x00\xff\xfe\x00\x00\x10\x10catchup"))
	f.Add([]byte("\x01\x02\x00\x30\x00\x3b\x00\x01\x00\x00\x0f\x21repay with every mechanism \xff\xff\xf0"))
	f.Add([]byte("\x01\x02\x00\x30\x03\x3b\x02\x03\x00\x00\x35\x61rate and drop time \xfe\xfe\x80\x80\x01"))
	f.Add([]byte("\x01\x02\x00\x30\x00\x3b\x00\x02\x00\x00\xc1\x02suspend \xfd\xff\xff\xff\xfd\xff"))
	f.Add([]byte("\x00\x00\x07\x01\x00\x00\x00\x01\x00\x00\x00\x00variable"))
	f.Add([]byte("\x01\x02\x00\x30\x00\x3b\x00\x02\x00\x00\x21\x02resync hook\xf0\xf0\xf0\xf0\xf0\xf0\xf0\xf0"))
	f.Fuzz(checkLedgerRun)
}

// fuzzStarts are the instants a run starts from: ordinary, and at both
// ends of the clock, where every subtraction is one step from wrapping.
var fuzzStarts = [...]timing.Instant{
	1 << 40, math.MinInt64, math.MinInt64 + 1, -1, 0, 1, math.MaxInt64 - 1<<40, math.MaxInt64 - 1,
}

// fuzzJumps are readings relative to the start, the previous reading or
// the end of the clock: the extremes a ledger must refuse or account for.
func fuzzJump(k uint16, start, now timing.Instant) timing.Instant {
	switch k % 8 {
	case 0:
		return timing.MaxInstant
	case 1:
		return timing.MaxInstant - 1
	case 2:
		return start.AddSaturating(math.MaxInt64)
	case 3:
		return start.AddSaturating(math.MaxInt64 - 1)
	case 4:
		return now.AddSaturating(1 << 62)
	case 5:
		return now.AddSaturating(math.MaxInt64)
	case 6:
		return timing.MaxInstant - timing.Instant(k>>3)*timing.Instant(time.Millisecond)
	}
	return start.AddSaturating(math.MaxInt64 - time.Duration(k>>3)*time.Millisecond)
}

// checkLedgerRun is the body of FuzzSchedulerLedger.
func checkLedgerRun(t *testing.T, data []byte) {
	if len(data) < 12 {
		return
	}
	hook := timing.DebtHookFunc(func(_ timing.PastCutoff, debt time.Duration) time.Duration { return debt / 2 })
	o := fuzzOptions([12]byte(data[:12]), hook)
	data = data[12:]
	s, err := timing.NewScheduler(o)
	if err != nil {
		t.Fatalf("fuzzOptions built invalid options %+v: %v", o, err)
	}
	var (
		start, now   timing.Instant
		sim, dropped time.Duration
		updates      uint64
		// The end of the latest update and the ledger's dropped +
		// suspended - adjusted time then: the next update starts that
		// much later (see Update.Start).
		prevEnd   timing.Instant
		prevShift *big.Int
		haveEnd   bool
		// exactSpans is false once a rational step rounded the cursor.
		exactSpans bool
	)
	restart := func(at timing.Instant) {
		start, now = at, at
		s.Start(at)
		sim, dropped, updates = 0, 0, 0
		haveEnd, exactSpans = false, s.Options().Rate.IsZero()
	}
	restart(fuzzStarts[0])
	// shift is in 128 bits: dropped + suspended - adjusted can pass
	// int64 when the totals are near its ends.
	shift := func(l timing.Ledger) *big.Int {
		r := big.NewInt(int64(l.Dropped()))
		r.Add(r, big.NewInt(int64(l.Suspended)))
		return r.Sub(r, big.NewInt(int64(l.Adjusted)))
	}
	for len(data) >= 2 {
		v := binary.LittleEndian.Uint16(data)
		data = data[2:]
		next := now
		switch v >> 13 {
		case 0: // live option change
			if len(data) >= 12 {
				if err := s.SetOptions(fuzzOptions([12]byte(data[:12]), hook)); err != nil {
					t.Fatalf("SetOptions: %v", err)
				}
				if !s.Options().Rate.IsZero() {
					exactSpans = false
				}
				data = data[12:]
			}
			continue
		case 1: // debt adjustment (rejected unless fixed RepayDebt and in range)
			d := time.Duration(int64(v&0x3ff)-512) * time.Millisecond
			before := s.Stats()
			if err := s.AdjustDebt(d); err != nil {
				if s.Stats() != before {
					t.Fatalf("a refused AdjustDebt(%v) changed the scheduler: %v", d, err)
				}
			} else if l := s.Ledger(); !l.Balanced() {
				t.Fatalf("after AdjustDebt(%v): ledger %+v is off by %v", d, l, l.Imbalance())
			}
		case 2: // regression must change nothing
			before := s.Stats()
			if _, err := s.Advance(now - 1); err == nil && now > math.MinInt64 {
				t.Fatal("a regressed reading was accepted")
			}
			if s.Stats() != before {
				t.Fatal("a regressed reading changed the scheduler")
			}
			continue
		case 3: // stall
			next = now.AddSaturating(time.Duration(v&0x1fff) * time.Millisecond)
		case 4: // the ends of the clock
			if v&0x1000 != 0 {
				restart(fuzzStarts[v&7])
				continue
			}
			next = max(fuzzJump(v&0xfff, start, now), now)
		default: // ordinary frame, up to ~65 ms
			next = now.AddSaturating(time.Duration(v&0x3fff) * 4000)
		}
		before := s.Stats()
		b, err := s.Advance(next)
		if err != nil {
			if !errors.Is(err, timing.ErrOverflow) {
				t.Fatalf("Advance(%v) after %v: %v", next, now, err)
			}
			if s.Stats() != before {
				t.Fatalf("a refused Advance(%v) changed the scheduler: %v", next, err)
			}
			// Far from both ends of the range a reading always fits.
			real, rerr := timing.Elapsed(start, next)
			if l := before.Ledger; rerr == nil && real < 1<<62 && next < timing.MaxInstant-1<<50 &&
				l.Adjusted > -(1<<50) && l.Adjusted < 1<<50 {
				t.Fatalf("Advance(%v) refused well inside the range: %v", next, err)
			}
			continue
		}
		now = next
		if err := s.CheckLedger(); err != nil {
			t.Fatalf("after Advance(%v) with %+v: %v", now, s.Options(), err)
		}
		if n := len(b.Updates); n > s.Options().MaxFixedUpdates+1 {
			t.Fatalf("%d updates in one batch, more than MaxFixedUpdates+1", n)
		}
		l := s.Ledger()
		var kinds [timing.NumKinds]int
		for i, u := range b.Updates {
			kinds[u.Kind]++
			sim += u.Delta
			updates++
			if u.End < u.Start || u.Delta < 0 {
				t.Fatalf("update %+v has a negative span or delta", u)
			}
			if i > 0 && u.Start != b.Updates[i-1].End {
				t.Fatalf("update spans are not contiguous: %+v after %+v", u, b.Updates[i-1])
			}
			if (i == len(b.Updates)-1) != u.Final {
				t.Fatalf("update %d of %d has Final=%v", i, len(b.Updates), u.Final)
			}
		}
		if b.Ticks != kinds {
			t.Fatalf("batch totals %v, want %v: its updates by kind", b.Ticks, kinds)
		}
		if len(b.Updates) > 0 {
			if haveEnd {
				// In 128 bits: the shift since the previous end can pass
				// int64 when the totals are near its ends.
				moved := new(big.Int).Sub(shift(l), prevShift)
				off := new(big.Int).Sub(big.NewInt(int64(b.Updates[0].Start)), big.NewInt(int64(prevEnd)))
				off.Sub(off, moved)
				if off.Sign() != 0 && (exactSpans || !off.IsInt64() || off.Int64() < -8 || off.Int64() > 8) {
					t.Fatalf("update %+v starts %v ns from the previous end %v plus the time dropped, suspended and adjusted since (%v ns)",
						b.Updates[0], off, prevEnd, moved)
				}
			}
			prevEnd, prevShift, haveEnd = b.Updates[len(b.Updates)-1].End, shift(l), true
			if s.Options().Rate.IsZero() {
				exactSpans = true
			}
		}
		dropped += b.Dropped
		if l.Simulated != sim {
			t.Fatalf("ledger simulated %v, sum of deltas %v", l.Simulated, sim)
		}
		if len(b.Updates) > 0 && dropped != l.Dropped() {
			t.Fatalf("reported dropped %v, ledger dropped %v", dropped, l.Dropped())
		}
		if l.Real != time.Duration(now-start) || l.Real < 0 {
			t.Fatalf("ledger real %v, want %v", l.Real, time.Duration(now-start))
		}
		if !l.Balanced() {
			t.Fatalf("ledger %+v is not balanced: off by %v", l, l.Imbalance())
		}
		if step := s.Step(); s.Options().Mode == timing.FixedMode && (l.PendingRemainder < -step-8 || l.PendingRemainder > step+8) {
			t.Fatalf("pending remainder %v is not within one step (%v) and the rounding of the totals", l.PendingRemainder, step)
		}
		if a := s.Alpha(); a < 0 || a >= 1 || math.IsNaN(a) {
			t.Fatalf("alpha %v outside [0, 1)", a)
		}
		if s.Tick() != updates {
			t.Fatalf("Tick() = %d, counted %d updates", s.Tick(), updates)
		}
		checkNextUpdateAt(t, s, now)
	}
}

// checkNextUpdateAt checks the NextUpdateAt contract on a copy of s: it is
// not before the latest reading, and Advance there selects an update
// unless the cutoff policy dropped the time or the reading is past the
// ledger's range.
func checkNextUpdateAt(t *testing.T, s *timing.Scheduler, now timing.Instant) {
	next := s.NextUpdateAt()
	if next < now {
		t.Fatalf("NextUpdateAt %v is before the latest reading %v", next, now)
	}
	if next == timing.MaxInstant {
		return // saturated: nothing is due within the clock
	}
	probe := *s
	b, err := probe.Advance(next)
	if err != nil {
		if !errors.Is(err, timing.ErrOverflow) {
			t.Fatalf("Advance at NextUpdateAt %v: %v", next, err)
		}
		return
	}
	if len(b.Updates) == 0 && !probe.Stats().Acting.Has(timing.MechCutoff) {
		t.Fatalf("Advance at NextUpdateAt %v (latest reading %v) selected nothing: %+v", next, now, s.Stats())
	}
}
