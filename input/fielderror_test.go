package input_test

import (
	"errors"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
)

// Every problem Validate finds is a *input.FieldError naming the field and
// what it allows, so a configuration loader can translate it.
func TestValidateFieldErrors(t *testing.T) {
	err := input.PollingOptions{Spacing: -time.Millisecond}.Validate()
	var got []*input.FieldError
	var walk func(error)
	walk = func(err error) {
		if fe, ok := err.(*input.FieldError); ok {
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
		{"PollingOptions.Spacing", "0 to 1s", "input: PollingOptions.Spacing -1ms is out of range (allowed: 0 to 1s)"},
		{"PollingOptions.Capacity", "1 to 65536", "input: PollingOptions.Capacity 0 is out of range (allowed: 1 to 65536)"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d field errors (%v), want %d", len(got), err, len(want))
	}
	for i, w := range want {
		if got[i].Field != w[0] || got[i].Allowed != w[1] || got[i].Error() != w[2] {
			t.Errorf("error %d = {%q, %q, %q}, want %q", i, got[i].Field, got[i].Allowed, got[i].Error(), w)
		}
	}
	var fe *input.FieldError
	if !errors.As(err, &fe) {
		t.Errorf("errors.As found no *input.FieldError in %v", err)
	}
}
