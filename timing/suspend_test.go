package timing_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// TestSuspend pauses each mode and policy for most of a second: nothing
// runs meanwhile, the pause is suspended time (never dropped, never owed),
// and the time pending when it began is simulated after it.
func TestSuspend(t *testing.T) {
	for _, m := range benchModes() {
		t.Run(m.name, func(t *testing.T) {
			s := schStart(t, m.opts)
			at := func(d time.Duration) timing.Instant { return schEpoch.AddSaturating(d) }
			sim := schAdvance(t, s, at(40*msec)).Updates
			before := s.Ledger()
			if err := s.Suspend(at(45 * msec)); err != nil {
				t.Fatal(err)
			}
			if !s.Suspended() || s.NextUpdateAt() != timing.MaxInstant {
				t.Fatalf("after Suspend: Suspended %v, NextUpdateAt %v; want true, MaxInstant", s.Suspended(), s.NextUpdateAt())
			}
			pending := s.Ledger().Pending()
			if want := before.Pending() + 5*msec; pending != want {
				t.Errorf("pending after Suspend: %v, want %v (the 5 ms before it stay pending)", pending, want)
			}
			b := schAdvance(t, s, at(300*msec))
			if len(b.Updates) != 0 || b.Suspended != 255*msec {
				t.Errorf("Advance while suspended: %d updates, %v suspended; want 0 and 255ms", len(b.Updates), b.Suspended)
			}
			if err := s.Resume(at(1000 * msec)); err != nil {
				t.Fatal(err)
			}
			l := s.Ledger()
			if s.Suspended() || l.Suspended != 955*msec || l.Pending() != pending || !l.Balanced() {
				t.Errorf("after Resume: suspended %v, ledger %+v; want 955ms suspended, %v pending, balanced", s.Suspended(), l, pending)
			}
			b = schAdvance(t, s, at(1010*msec))
			if b.Suspended != 700*msec {
				t.Errorf("first Advance after Resume reports %v suspended, want the 700ms Resume accounted", b.Suspended)
			}
			for i := 0; i < 50; i++ {
				sim = append(sim, schAdvance(t, s, at(1010*msec+time.Duration(i+1)*timing.DefaultInterval)).Updates...)
			}
			l = s.Ledger()
			if l.Dropped() != 0 || l.Suspended != 955*msec || !l.Balanced() {
				t.Errorf("ledger after the pause %+v: want nothing dropped, 955ms suspended, balanced", l)
			}
			if len(sim) == 0 {
				t.Fatal("nothing ran")
			}
		})
	}
}

func TestSuspendEdges(t *testing.T) {
	var idle timing.Scheduler
	if err := idle.Suspend(0); !errors.Is(err, timing.ErrNotStarted) {
		t.Errorf("Suspend before Start: %v, want ErrNotStarted", err)
	}
	if err := idle.Resume(0); !errors.Is(err, timing.ErrNotStarted) {
		t.Errorf("Resume before Start: %v, want ErrNotStarted", err)
	}

	s := schStart(t, schFixed(10*msec, 1, timing.DropExcessLag))
	schAdvance(t, s, schEpoch+timing.Instant(25*msec))
	if err := s.Resume(schEpoch + timing.Instant(30*msec)); err != nil || s.Suspended() {
		t.Errorf("Resume while running: %v, suspended %v; want nil, false", err, s.Suspended())
	}
	// An instant before the latest reading suspends from that reading.
	if err := s.Suspend(schEpoch); err != nil {
		t.Fatal(err)
	}
	if l := s.Ledger(); l.Real != 25*msec || l.Suspended != 0 {
		t.Errorf("Suspend in the past: ledger %+v, want 25ms real, nothing suspended", l)
	}
	// Suspend again accounts the time up to it; Resume in the past resumes
	// from the latest reading.
	if err := s.Suspend(schEpoch + timing.Instant(40*msec)); err != nil {
		t.Fatal(err)
	}
	if err := s.Resume(schEpoch + timing.Instant(35*msec)); err != nil {
		t.Fatal(err)
	}
	if l := s.Ledger(); l.Real != 40*msec || l.Suspended != 15*msec || !l.Balanced() {
		t.Errorf("after a second Suspend and a Resume in the past: %+v, want 40ms real, 15ms suspended", l)
	}
	// A regression is still one for Advance while suspended.
	if err := s.Suspend(schEpoch + timing.Instant(40*msec)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Advance(schEpoch); !errors.Is(err, timing.ErrClockRegression) {
		t.Errorf("Advance backwards while suspended: %v, want ErrClockRegression", err)
	}
	// Start clears a suspension.
	s.Start(schEpoch)
	if s.Suspended() {
		t.Error("Start kept the suspension")
	}

	// Past the ledger's range (2^63-1 ns after Start): refused, nothing
	// changes.
	s.Start(timing.Instant(math.MinInt64))
	before := s.Stats()
	if err := s.Suspend(timing.MaxInstant); !errors.Is(err, timing.ErrOverflow) {
		t.Errorf("Suspend at MaxInstant: %v, want ErrOverflow", err)
	}
	if s.Stats() != before || s.Suspended() {
		t.Errorf("a refused Suspend changed the scheduler")
	}
	if err := s.Suspend(-1); err != nil {
		t.Fatal(err)
	}
	before = s.Stats()
	if err := s.Resume(timing.MaxInstant); !errors.Is(err, timing.ErrOverflow) {
		t.Errorf("Resume at MaxInstant: %v, want ErrOverflow", err)
	}
	if s.Stats() != before || !s.Suspended() {
		t.Errorf("a refused Resume changed the scheduler")
	}
}

// TestSuspendSetOptions: options changed while suspended apply after
// Resume, and nothing is due meanwhile.
func TestSuspendSetOptions(t *testing.T) {
	s := schStart(t, schFixed(10*msec, 1, timing.DropExcessLag))
	schAdvance(t, s, schEpoch+timing.Instant(15*msec))
	if err := s.Suspend(schEpoch + timing.Instant(15*msec)); err != nil {
		t.Fatal(err)
	}
	o := s.Options()
	o.FixedStep = 4 * msec
	if err := s.SetOptions(o); err != nil {
		t.Fatal(err)
	}
	if s.NextUpdateAt() != timing.MaxInstant {
		t.Errorf("NextUpdateAt after SetOptions while suspended: %v, want MaxInstant", s.NextUpdateAt())
	}
	if err := s.Resume(schEpoch + timing.Instant(time.Second)); err != nil {
		t.Fatal(err)
	}
	b := schAdvance(t, s, schEpoch+timing.Instant(time.Second+3*msec))
	// 5 ms pending from before plus 3 ms: two 4 ms steps, one of them
	// dropped as excess (MaxFixedUpdates 1).
	if len(b.Updates) != 1 || b.Updates[0].Delta != 4*msec || b.Dropped != 4*msec {
		t.Errorf("after Resume: %d updates (%+v), %v dropped; want one 4ms step and 4ms dropped", len(b.Updates), b.Updates, b.Dropped)
	}
	if l := s.Ledger(); !l.Balanced() || l.Suspended != time.Second-15*msec {
		t.Errorf("ledger %+v: want balanced, 985ms suspended", l)
	}
}

// FuzzSchedulerSuspend drives random clock sequences with suspensions,
// option changes and debt adjustments under every policy, and checks after
// every call that the ledger is exact, that nothing runs while suspended,
// that the suspended time is exactly the time between each Suspend and its
// Resume (plus RepayDebt's own suspensions), that a pause never changes
// the pending time, and that spans follow the ledger across a pause.
func FuzzSchedulerSuspend(f *testing.F) {
	f.Add([]byte("\x01\x00\x00\x9a\x01\x00\x00\x01\x00\x02\x00\x00\x10\x00\x01\x20\x20\x00\x02\x40\x10\x00"))
	f.Add([]byte("\x01\x02\x00\x30\x00\x3b\x00\x01\x00\x00\x0f\x21\x01\x20\x03\x60\x01\x20\xff\x7f\x02\x40\x10\x00\x10\x00"))
	f.Add([]byte("\x00\x00\x07\x01\x00\x00\x00\x01\x00\x00\x00\x00variable\x01\x20\x02\x40"))
	f.Add([]byte("\x01\x02\x00\x30\x03\x3b\x02\x03\x00\x00\xc5\x61rate\x01\x20\x00\x00\x01\x02\x00\x30\x00\x3b\x00\x01\x00\x00\x0f\x21\x02\x40"))
	f.Add([]byte("\x01\x01\x00\x20\x00\x3b\x00\x01\x01\x01\x00\x00\x01\x20\xff\xff\x02\x40\xff\x1f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 12 {
			return
		}
		hook := timing.DebtHookFunc(func(_ timing.PastCutoff, debt time.Duration) time.Duration { return debt / 2 })
		s, err := timing.NewScheduler(fuzzOptions([12]byte(data[:12]), hook))
		if err != nil {
			t.Fatal(err)
		}
		data = data[12:]
		start := timing.Instant(1 << 40)
		now := start
		s.Start(now)
		var (
			explicit  time.Duration // suspended between Suspend and Resume, by the test's count
			auto      time.Duration // suspended by RepayDebt's SuspendAfter
			unrep     time.Duration // explicit time not yet reported by a batch
			reported  time.Duration // Batch.Suspended summed
			pending   time.Duration // at the latest Suspend
			prevEnd   timing.Instant
			prevShift time.Duration
			haveEnd   bool
		)
		shift := func(l timing.Ledger) time.Duration { return l.Dropped() + l.Suspended - l.Adjusted }
		check := func(what string) {
			t.Helper()
			if err := s.CheckLedger(); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			l := s.Ledger()
			if !l.Balanced() || l.Real != time.Duration(now-start) {
				t.Fatalf("%s: ledger %+v off by %v, real want %v", what, l, l.Imbalance(), time.Duration(now-start))
			}
			if l.Suspended != explicit+auto {
				t.Fatalf("%s: ledger suspended %v, want %v between Suspend and Resume and %v by SuspendAfter", what, l.Suspended, explicit, auto)
			}
			if s.Suspended() {
				if s.NextUpdateAt() != timing.MaxInstant {
					t.Fatalf("%s: NextUpdateAt %v while suspended", what, s.NextUpdateAt())
				}
				if l.Pending() != pending {
					t.Fatalf("%s: pending %v while suspended, %v at Suspend", what, l.Pending(), pending)
				}
			} else {
				checkNextUpdateAt(t, s, now)
			}
		}
		for len(data) >= 2 {
			v := binary.LittleEndian.Uint16(data)
			data = data[2:]
			switch v % 8 {
			case 0: // live option change
				if len(data) >= 12 {
					if err := s.SetOptions(fuzzOptions([12]byte(data[:12]), hook)); err != nil {
						t.Fatal(err)
					}
					data = data[12:]
					if s.Suspended() {
						pending = s.Ledger().Pending() // SetOptions may round pending time
					}
					haveEnd = false // a new step or rate rounds the cursor
					check("SetOptions")
				}
				continue
			case 1: // suspend, up to ~33 ms after the latest reading
				at := now.AddSaturating(time.Duration(v>>3) * time.Millisecond / 64)
				wasPaused := s.Suspended()
				if err := s.Suspend(at); err != nil {
					t.Fatalf("Suspend(%v): %v", at, err)
				}
				if wasPaused {
					explicit += time.Duration(at - now)
					unrep += time.Duration(at - now)
				} else {
					pending = s.Ledger().Pending()
				}
				now = at
				check("Suspend")
				continue
			case 2: // resume
				at := now.AddSaturating(time.Duration(v>>3) * time.Millisecond)
				wasPaused := s.Suspended()
				if err := s.Resume(at); err != nil {
					t.Fatalf("Resume(%v): %v", at, err)
				}
				if wasPaused {
					explicit += time.Duration(at - now)
					unrep += time.Duration(at - now)
					now = at
					if l := s.Ledger(); l.Pending() != pending {
						t.Fatalf("pending %v after Resume, %v at Suspend", l.Pending(), pending)
					}
				}
				check("Resume")
				continue
			case 3: // debt adjustment (refused unless fixed RepayDebt)
				d := time.Duration(int64(v>>3&0x3ff)-512) * time.Millisecond
				if s.AdjustDebt(d) == nil && s.Suspended() {
					pending = s.Ledger().Pending()
				}
				check("AdjustDebt")
				continue
			}
			prev, wasPaused := now, s.Suspended()
			o := s.Options()
			if v%8 == 4 { // stall
				now = now.AddSaturating(time.Duration(v>>3) * time.Millisecond)
			} else { // ordinary frame, up to ~8 ms
				now = now.AddSaturating(time.Duration(v>>3) * 1000)
			}
			b, err := s.Advance(now)
			if err != nil {
				t.Fatalf("Advance(%v): %v", now, err)
			}
			reported += b.Suspended
			gap := time.Duration(now - prev)
			if wasPaused {
				explicit += gap
				if len(b.Updates) != 0 || b.Suspended != gap+unrep {
					t.Fatalf("Advance while suspended: %d updates, %v suspended; want none and %v", len(b.Updates), b.Suspended, gap+unrep)
				}
			} else if extra := b.Suspended - unrep; extra != 0 {
				// Only RepayDebt suspends on its own, and then the whole gap.
				if o.Mode != timing.FixedMode || o.Recovery != timing.RepayDebt || o.Debt.SuspendAfter == 0 || gap <= o.Debt.SuspendAfter || extra != gap {
					t.Fatalf("Advance after %v with %+v: %v suspended beyond the %v Resume accounted", gap, o.Debt, extra, unrep)
				}
				auto += extra
			}
			unrep = 0
			l := s.Ledger()
			if reported != l.Suspended {
				t.Fatalf("batches reported %v suspended, the ledger has %v", reported, l.Suspended)
			}
			if len(b.Updates) > 0 {
				if haveEnd && s.Options().Rate.IsZero() {
					if want := prevEnd.AddSaturating(shift(l) - prevShift); b.Updates[0].Start != want {
						t.Fatalf("update %+v starts at %v, want the previous end %v moved by %v", b.Updates[0], b.Updates[0].Start, prevEnd, shift(l)-prevShift)
					}
				}
				prevEnd, prevShift, haveEnd = b.Updates[len(b.Updates)-1].End, shift(l), s.Options().Rate.IsZero()
			}
			check(fmt.Sprintf("Advance(%v)", now))
		}
	})
}

// A game that pauses while its window is unfocused suspends its
// scheduler: the pause is neither simulated nor dropped.
func ExampleScheduler_Suspend() {
	o := timing.DefaultOptions()
	o.Mode = timing.FixedMode
	o.FixedStep = 10 * time.Millisecond
	s, _ := timing.NewScheduler(o)
	ms := func(n int) timing.Instant { return timing.Instant(n) * timing.Instant(time.Millisecond) }
	s.Start(0)
	for _, at := range []int{10, 20, 25} {
		s.Advance(ms(at)) // two steps run, 5 ms pending
	}
	s.Suspend(ms(30))  // focus lost: 10 ms pending
	s.Advance(ms(500)) // nothing runs
	s.Resume(ms(2000)) // focus back
	b, _ := s.Advance(ms(2000))
	l := s.Ledger()
	fmt.Println("after the pause:", len(b.Updates), "update,", b.Suspended, "suspended in its batch")
	fmt.Println("simulated", l.Simulated, "suspended", l.Suspended, "dropped", l.Dropped(), "balanced", l.Balanced())
	// Output:
	// after the pause: 1 update, 1.5s suspended in its batch
	// simulated 30ms suspended 1.97s dropped 0s balanced true
}
