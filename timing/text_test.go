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
	for _, want := range []string{`"mode":"fixed"`, `"recovery":"repay-debt"`, `"acting":"pacing+quiet-ticks"`,
		`"enabled":"pacing+quiet-ticks+suspension+cutoff"`, `"ledger":{"real_ns":1500000000,`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
}

func TestRateText(t *testing.T) {
	for _, tc := range []struct {
		text string
		want timing.Rate
		back string
	}{
		{"60", timing.Hz(60), "60"},
		{"0", timing.Rate{}, "0"},
		{"30000/1001", timing.Rate{Num: 30000, Den: 1001}, "30000/1001"},
		{" 120 / 2 ", timing.Rate{Num: 120, Den: 2}, "120/2"},
	} {
		var r timing.Rate
		if err := r.UnmarshalText([]byte(tc.text)); err != nil || r != tc.want {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", tc.text, r, err, tc.want)
		}
		if b, _ := r.MarshalText(); string(b) != tc.back {
			t.Errorf("MarshalText(%v) = %q, want %q", r, b, tc.back)
		}
	}
	for text, want := range map[string]string{
		"120.5": `timing: a rate is exact, so it is a whole number of Hz or a fraction string "N/D": write 120.5 Hz as "241/2"`,
		"-3":    "timing: a rate is not negative",
		"60/0":  "timing: the fraction's denominator is 0",
		"fast":  `timing: want a rate in Hz: a whole number such as 60, or a fraction string "N/D" such as "30000/1001"`,
	} {
		var r timing.Rate
		if err := r.UnmarshalText([]byte(text)); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("UnmarshalText(%q) = %v, want %q", text, err, want)
		}
	}
}
