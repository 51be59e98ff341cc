package timing_test

import (
	"encoding/binary"
	"math"
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

// checkLedgerRun is the body of FuzzSchedulerLedger.
func checkLedgerRun(t *testing.T, data []byte) {
	{
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
		now := timing.Instant(1 << 40)
		s.Start(now)
		var sim, dropped time.Duration
		var updates uint64
		for len(data) >= 2 {
			v := binary.LittleEndian.Uint16(data)
			data = data[2:]
			switch v >> 13 {
			case 0: // live option change
				if len(data) >= 12 {
					if err := s.SetOptions(fuzzOptions([12]byte(data[:12]), hook)); err != nil {
						t.Fatalf("SetOptions: %v", err)
					}
					data = data[12:]
				}
				continue
			case 1: // debt adjustment (rejected unless fixed RepayDebt)
				d := time.Duration(int64(v&0x3ff)-512) * time.Millisecond
				_ = s.AdjustDebt(d)
			case 2: // regression must change nothing
				before := s.Stats()
				if _, err := s.Advance(now - 1); err == nil {
					t.Fatal("a regressed reading was accepted")
				}
				if s.Stats() != before {
					t.Fatal("a regressed reading changed the scheduler")
				}
				continue
			case 3: // stall
				now += timing.Instant(v&0x1fff) * timing.Instant(time.Millisecond)
			default: // ordinary frame, up to ~65 ms
				now += timing.Instant(v&0x3fff) * 4000
			}
			b, err := s.Advance(now)
			if err != nil {
				t.Fatalf("Advance: %v", err)
			}
			if err := s.CheckLedger(); err != nil {
				t.Fatalf("after Advance(%v) with %+v: %v", now, s.Options(), err)
			}
			if n := len(b.Updates); n > s.Options().MaxFixedUpdates+1 {
				t.Fatalf("%d updates in one batch, more than MaxFixedUpdates+1", n)
			}
			for i, u := range b.Updates {
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
			dropped += b.Dropped
			l := s.Ledger()
			if l.Simulated != sim {
				t.Fatalf("ledger simulated %v, sum of deltas %v", l.Simulated, sim)
			}
			if len(b.Updates) > 0 && dropped != l.Dropped() {
				t.Fatalf("reported dropped %v, ledger dropped %v", dropped, l.Dropped())
			}
			if l.Real != time.Duration(now-timing.Instant(1<<40)) {
				t.Fatalf("ledger real %v, want %v", l.Real, now-timing.Instant(1<<40))
			}
			if sum := l.Simulated + l.Dropped() + l.Suspended + l.Pending() - l.Adjusted; sum != l.Real {
				t.Fatalf("ledger %+v sums to %v, want %v", l, sum, l.Real)
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
		}
	}
}
