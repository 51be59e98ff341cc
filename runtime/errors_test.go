package runtime_test

import (
	"errors"
	"reflect"
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

// TestPhaseIsNotAString: a game compares a PhaseError's phase with the
// package's constants. Phase used to be a string with unexported
// constants, so a game wrote pe.Phase == "updte", which compiled and never
// matched; a Phase that is no string makes the misspelling a compile error.
func TestPhaseIsNotAString(t *testing.T) {
	if k := reflect.TypeFor[runtime.Phase]().Kind(); k == reflect.String {
		t.Fatalf("runtime.Phase is a %v: a misspelt phase name would compile", k)
	}
	phases := []struct {
		phase runtime.Phase
		name  string
	}{
		{runtime.PhaseValidate, "validate"},
		{runtime.PhaseInitInput, "init input"},
		{runtime.PhaseInitGraphics, "init graphics"},
		{runtime.PhaseInitPlatform, "init platform"},
		{runtime.PhaseInitSimulation, "init simulation"},
		{runtime.PhasePoll, "poll"},
		{runtime.PhaseSchedule, "schedule"},
		{runtime.PhaseMailbox, "mailbox"},
		{runtime.PhaseService, "service"},
		{runtime.PhaseShutdownPolicy, "shutdown policy"},
		{runtime.PhaseUpdate, "update"},
		{runtime.PhasePrepareFrame, "prepare frame"},
		{runtime.PhaseRender, "render"},
		{runtime.PhasePresent, "present"},
		{runtime.PhaseDeinitSimulation, "deinit simulation"},
		{runtime.PhaseQuiesce, "quiesce"},
		{runtime.PhaseSettleWorkers, "settle workers"},
		{runtime.PhaseSettle, "settle"},
		{runtime.PhaseRecycleFrames, "recycle frames"},
		{runtime.PhaseRecord, "record"},
		{runtime.PhaseReplay, "replay"},
		{runtime.PhaseDeinitPlatform, "deinit platform"},
		{runtime.PhaseCloseInput, "close input"},
		{runtime.PhaseCloseGraphics, "close graphics"},
	}
	seen := map[runtime.Phase]bool{}
	for _, p := range phases {
		if got := p.phase.String(); got != p.name {
			t.Errorf("phase %d: got name %q, want %q", p.phase, got, p.name)
		}
		if seen[p.phase] {
			t.Errorf("phase %q: the same value as another phase", p.name)
		}
		seen[p.phase] = true
	}
	if seen[0] {
		t.Error("a phase is the zero Phase; the zero value must be none")
	}
	if got, want := runtime.Phase(0).String(), "Phase(0)"; got != want {
		t.Errorf("zero Phase: got %q, want %q", got, want)
	}
}
