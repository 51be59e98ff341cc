package runtime_test

import (
	"errors"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// SetDelivery and SetTimingOptions guard the same rule from both sides:
// timestamped delivery needs fixed steps, and a refused change leaves
// everything as it was.
func TestSetDeliveryValidatesAgainstTiming(t *testing.T) {
	r := newRig(runtime.Sequential, nil)
	r.opts.Timing.Mode = timing.FixedMode
	r.opts.Timing.FixedStep = 20 * time.Millisecond
	rt, err := r.build()
	if err != nil {
		t.Fatal(err)
	}
	defer r.ctx.Close()
	if got := rt.Delivery(); got != input.Backlog {
		t.Fatalf("initial delivery %v, want backlog", got)
	}
	if err := rt.SetDelivery(input.Timestamped); err != nil {
		t.Fatalf("timestamped with fixed steps: %v", err)
	}
	if got := rt.Options().Polling.Delivery; got != input.Timestamped {
		t.Errorf("Options().Polling.Delivery = %v, want timestamped", got)
	}
	variable := timing.DefaultOptions()
	if err := rt.SetTimingOptions(variable); !errors.Is(err, input.ErrTimestampedNeedsFixedSteps) {
		t.Errorf("variable timing under timestamped delivery: %v, want ErrTimestampedNeedsFixedSteps", err)
	}
	if rt.TimingOptions().Mode != timing.FixedMode {
		t.Error("a refused SetTimingOptions changed the timing mode")
	}
	if err := rt.SetDelivery(input.Backlog); err != nil {
		t.Fatal(err)
	}
	if err := rt.SetTimingOptions(variable); err != nil {
		t.Fatalf("variable timing under backlog delivery: %v", err)
	}
	if err := rt.SetDelivery(input.Timestamped); !errors.Is(err, input.ErrTimestampedNeedsFixedSteps) {
		t.Errorf("timestamped under variable timing: %v, want ErrTimestampedNeedsFixedSteps", err)
	}
	if err := rt.SetDelivery(input.Delivery(7)); err == nil {
		t.Error("an unknown delivery policy was accepted")
	}
	if got := rt.Delivery(); got != input.Backlog {
		t.Errorf("delivery after refused changes: %v, want backlog", got)
	}
}
