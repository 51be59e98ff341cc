package runtime_test

import (
	"errors"
	"testing"

	"github.com/metronome-go/metronome/runtime"
)

// TestPhaseErrorPrefixes: a phase error says "runtime:" and its phase
// once; it used to print "runtime: replay: runtime: replay diverged".
func TestPhaseErrorPrefixes(t *testing.T) {
	tests := []struct {
		phase runtime.Phase
		err   error
		want  string
	}{
		{runtime.PhaseReplay, errors.New("runtime: replay diverged after tick 59"), "runtime: replay diverged after tick 59"},
		{runtime.PhaseReplay, runtime.ErrReplayStalled, "runtime: replay stalled"},
		{runtime.PhaseUpdate, runtime.ErrNoStopSource, "runtime: update: tick has no stop source"},
		{runtime.PhaseReplay, errors.New("recording: a.rec: byte 5: torn"), "runtime: replay: recording: a.rec: byte 5: torn"},
		{runtime.PhaseUpdate, errors.New("boom"), "runtime: update: boom"},
	}
	for _, tt := range tests {
		err := &runtime.PhaseError{Phase: tt.phase, Err: tt.err}
		if got := err.Error(); got != tt.want {
			t.Errorf("PhaseError{%s, %q}: got %q, want %q", tt.phase, tt.err, got, tt.want)
		}
		if !errors.Is(err, tt.err) {
			t.Errorf("PhaseError{%s, %q} does not wrap its error", tt.phase, tt.err)
		}
	}
}
