package option_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// fieldErrors returns every *option.Error inside err, in order.
func fieldErrors(err error) []*option.Error {
	var out []*option.Error
	var walk func(error)
	walk = func(err error) {
		if fe, ok := err.(*option.Error); ok {
			out = append(out, fe)
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	return out
}

// TestEveryValidateReportsFieldErrors: the options of every package report
// each problem as an *option.Error naming the package, the field and what
// it allows, so a configuration loader can translate them.
func TestEveryValidateReportsFieldErrors(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want [][3]string // field, allowed, message
	}{
		{"timing", func() timing.Options {
			o := timing.DefaultOptions()
			o.MaxFixedUpdates = 0
			o.Recovery = timing.RepayDebt
			o.Debt.Gain = 0
			return o
		}().Validate(), [][3]string{
			{"Options.MaxFixedUpdates", "1 to 64", "timing: Options.MaxFixedUpdates 0 is out of range; allowed: 1 to 64"},
			{"DebtOptions.Gain", "above 0 up to 10", "timing: DebtOptions.Gain 0 is out of range; allowed: above 0 up to 10"},
		}},
		{"input", input.PollingOptions{Spacing: -time.Millisecond, Capacity: 0}.Validate(), [][3]string{
			{"PollingOptions.Spacing", "0 to 1s", "input: PollingOptions.Spacing -1ms is out of range; allowed: 0 to 1s"},
			{"PollingOptions.Capacity", "1 to 65536", "input: PollingOptions.Capacity 0 is out of range; allowed: 1 to 65536"},
		}},
		{"runtime", func() runtime.Options {
			o := runtime.DefaultOptions()
			o.FrameCap = -1
			o.HiddenInterval = 0
			return o
		}().Validate(), [][3]string{
			{"Options.FrameCap", "0 to 1s", "runtime: Options.FrameCap -1ns is out of range; allowed: 0 to 1s"},
			{"Options.HiddenInterval", "1ms to 1s", "runtime: Options.HiddenInterval 0s is out of range; allowed: 1ms to 1s"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fieldErrors(tt.err)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d field errors (%v), want %d", len(got), tt.err, len(tt.want))
			}
			for i, w := range tt.want {
				if got[i].Pkg != tt.name || got[i].Field != w[0] || got[i].Allowed != w[1] || got[i].Error() != w[2] {
					t.Errorf("error %d = {%q, %q, %q, %q}, want %q", i, got[i].Pkg, got[i].Field, got[i].Allowed, got[i].Error(), w)
				}
			}
			var fe *option.Error
			if !errors.As(tt.err, &fe) {
				t.Errorf("errors.As found no *option.Error in %v", tt.err)
			}
		})
	}
}

func TestErrorWrapsSentinel(t *testing.T) {
	sentinel := errors.New("sentinel")
	e := &option.Error{Pkg: "x", Field: "F", Problem: "is wrong", Err: sentinel}
	if !errors.Is(e, sentinel) {
		t.Error("errors.Is does not see the wrapped sentinel")
	}
	if got, want := e.Error(), "x: F is wrong"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

// TestRelationsAreMarked: a problem that depends on another option, in any
// package, is marked Relative and names that option, so a configuration
// loader can check it once every value is in.
func TestRelationsAreMarked(t *testing.T) {
	timed := timing.DefaultOptions()
	timed.MaxFixedUpdates, timed.RecoveryPrefix = 2, 3
	for _, tt := range []struct {
		err   error
		field string
		names []string
	}{
		{timed.Validate(), "Options.RecoveryPrefix", []string{"Options.MaxFixedUpdates"}},
		{input.ValidateDelivery(input.Timestamped, false), "PollingOptions.Delivery", []string{"timing.Options.Mode"}},
	} {
		got := fieldErrors(tt.err)
		if len(got) != 1 || got[0].Field != tt.field || !got[0].Relative || !slices.Equal(got[0].Names, tt.names) {
			t.Errorf("%v: want one relative error on %s naming %v", tt.err, tt.field, tt.names)
		}
	}
	if err := input.ValidateDelivery(input.Timestamped, false); !errors.Is(err, input.ErrTimestampedNeedsFixedSteps) {
		t.Errorf("%v does not wrap ErrTimestampedNeedsFixedSteps", err)
	}
}
