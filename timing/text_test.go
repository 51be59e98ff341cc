package timing_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/timing"
)

func TestEnumText(t *testing.T) {
	for _, name := range []string{"variable", "fixed"} {
		var m timing.Mode
		if err := m.UnmarshalText([]byte(name)); err != nil || m.String() != name {
			t.Errorf("Mode %q: got %v, %v", name, m, err)
		}
	}
	for _, name := range []string{"drop-excess-lag", "variable-catch-up", "repay-debt"} {
		var r timing.Recovery
		if err := r.UnmarshalText([]byte(name)); err != nil || r.String() != name {
			t.Errorf("Recovery %q: got %v, %v", name, r, err)
		}
	}
	for _, name := range []string{"slow-down", "drop-time", "resync", "shared-slowdown"} {
		var p timing.PastCutoff
		if err := p.UnmarshalText([]byte(name)); err != nil || p.String() != name {
			t.Errorf("PastCutoff %q: got %v, %v", name, p, err)
		}
	}
	m := timing.FixedMode
	err := m.UnmarshalText([]byte("fixd"))
	if err == nil || !strings.Contains(err.Error(), `unknown mode "fixd"; allowed "variable", "fixed"`) || m != timing.FixedMode {
		t.Errorf("bad mode: %v, mode now %v; want a range error and no change", err, m)
	}
}

func TestStatsJSON(t *testing.T) {
	s := schStart(t, repayOpts())
	schAdvance(t, s, schAt(1500*msec))
	b, err := json.Marshal(s.Stats())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"Mode":"fixed"`, `"Recovery":"repay-debt"`, `"Acting":"pacing+quiet-ticks"`,
		`"Enabled":"pacing+quiet-ticks+suspension+cutoff"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
}
