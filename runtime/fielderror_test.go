package runtime_test

import (
	"errors"
	"testing"

	"github.com/metronome-go/metronome/runtime"
)

// Every problem Validate finds is a *runtime.FieldError naming the field and
// what it allows, so a configuration loader can translate it.
func TestValidateFieldErrors(t *testing.T) {
	err := func() runtime.Options { o := runtime.DefaultOptions(); o.FrameCap = -1; o.HiddenInterval = 0; return o }().Validate()
	var got []*runtime.FieldError
	var walk func(error)
	walk = func(err error) {
		if fe, ok := err.(*runtime.FieldError); ok {
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
		{"Options.FrameCap", "0 to 1s", "runtime: Options.FrameCap -1ns is out of range (allowed: 0 to 1s)"},
		{"Options.HiddenInterval", "1ms to 1s", "runtime: Options.HiddenInterval 0s is out of range (allowed: 1ms to 1s)"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d field errors (%v), want %d", len(got), err, len(want))
	}
	for i, w := range want {
		if got[i].Field != w[0] || got[i].Allowed != w[1] || got[i].Error() != w[2] {
			t.Errorf("error %d = {%q, %q, %q}, want %q", i, got[i].Field, got[i].Allowed, got[i].Error(), w)
		}
	}
	var fe *runtime.FieldError
	if !errors.As(err, &fe) {
		t.Errorf("errors.As found no *runtime.FieldError in %v", err)
	}
}
