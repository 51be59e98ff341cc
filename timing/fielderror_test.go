package timing_test

import (
	"errors"
	"testing"

	"github.com/metronome-go/metronome/timing"
)

// Every problem Validate finds is a *timing.FieldError naming the field and
// what it allows, so a configuration loader can translate it.
func TestValidateFieldErrors(t *testing.T) {
	err := func() timing.Options {
		o := timing.DefaultOptions()
		o.MaxFixedUpdates = 0
		o.Recovery = timing.RepayDebt
		o.Debt.Gain = 0
		return o
	}().Validate()
	var got []*timing.FieldError
	var walk func(error)
	walk = func(err error) {
		if fe, ok := err.(*timing.FieldError); ok {
			got = append(got, fe)
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	want := [][3]string{
		{"Options.MaxFixedUpdates", "1 to 64", "timing: Options.MaxFixedUpdates 0 is out of range; allowed: 1 to 64"},
		{"DebtOptions.Gain", "above 0 up to 10", "timing: DebtOptions.Gain 0 is out of range; allowed: above 0 up to 10"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d field errors (%v), want %d", len(got), err, len(want))
	}
	for i, w := range want {
		if got[i].Field != w[0] || got[i].Allowed != w[1] || got[i].Error() != w[2] {
			t.Errorf("error %d = {%q, %q, %q}, want %q", i, got[i].Field, got[i].Allowed, got[i].Error(), w)
		}
	}
	var fe *timing.FieldError
	if !errors.As(err, &fe) {
		t.Errorf("errors.As found no *timing.FieldError in %v", err)
	}
}
