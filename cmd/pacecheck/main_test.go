package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	us := time.Microsecond
	var l []time.Duration
	for i := 100; i >= 1; i-- { // 100..1 µs, unsorted input
		l = append(l, time.Duration(i)*us)
	}
	l = append(l, -5*us)
	got := summarize("x", l)
	want := summary{Method: "x", Frames: 101, Min: -5 * us, Median: 50 * us, P90: 90 * us, P99: 99 * us, Max: 100 * us, Mean: 5045 * us / 101, Early: 1}
	if got != want {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if l[0] != 100*us {
		t.Error("summarize reordered its input")
	}
	if got := summarize("empty", nil); got != (summary{Method: "empty"}) {
		t.Errorf("empty: %+v", got)
	}
}

func TestPlanAlternatesFairly(t *testing.T) {
	p := plan(3, 70, 30)
	want := [][2]int{{0, 30}, {1, 30}, {2, 30}, {0, 30}, {1, 30}, {2, 30}, {0, 10}, {1, 10}, {2, 10}}
	if len(p) != len(want) {
		t.Fatalf("got %v, want %v", p, want)
	}
	for i := range p {
		if p[i] != want[i] {
			t.Fatalf("step %d: got %v, want %v", i, p[i], want[i])
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		args   []string
		errHas []string
	}{
		{nil, nil},
		{[]string{"-frames", "60", "-block", "60", "-rate", "1000"}, nil},
		{[]string{"-frames", "0", "-rate", "0"}, []string{"-frames 0 is out of range [1, 100000]", "-rate 0 is out of range [1, 1000]"}},
		{[]string{"-frames", "10", "-block", "11"}, []string{"-block 11 is out of range [1, 10]"}},
	}
	for _, tt := range tests {
		_, err := parse(tt.args)
		if (err == nil) != (tt.errHas == nil) {
			t.Errorf("parse(%q) = %v, want errors %q", tt.args, err, tt.errHas)
			continue
		}
		for _, s := range tt.errHas {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("parse(%q) = %v, lacks %q", tt.args, err, s)
			}
		}
	}
}

func TestRatio(t *testing.T) {
	if got := ratio(600, 100); got != 6 {
		t.Errorf("ratio = %v, want 6", got)
	}
	if got := ratio(600, 0); got != 0 {
		t.Errorf("ratio over zero = %v, want 0", got)
	}
}

// TestRunJSON runs the whole command briefly at 1 kHz and checks the shape
// of its report, not the figures.
func TestRunJSON(t *testing.T) {
	var out strings.Builder
	if err := run([]string{"-frames", "4", "-block", "2", "-rate", "1000", "-wakes", "2", "-json"}, &out); err != nil {
		t.Fatal(err)
	}
	var r report
	if err := json.Unmarshal([]byte(out.String()), &r); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out.String())
	}
	if r.Interval != time.Millisecond || len(r.Methods) != 4 || len(r.Wakes) != 4 {
		t.Fatalf("report: %+v", r)
	}
	for _, m := range append(r.Methods, r.Wakes...) {
		if m.Frames != 4 && m.Frames != 2 {
			t.Errorf("%s has %d samples, want 4 frames or 2 wakes", m.Method, m.Frames)
		}
	}
	if r.Methods[0].Method != "native" || r.Methods[3].Method != "time.Sleep" {
		t.Errorf("methods in order %q ... %q, want native first and time.Sleep last", r.Methods[0].Method, r.Methods[3].Method)
	}
}

func TestRunText(t *testing.T) {
	var out strings.Builder
	if err := run([]string{"-frames", "2", "-block", "1", "-rate", "1000", "-wakes", "0"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"wake lateness at 1000 Hz", "native-futex", "time.Sleep", "median ratio", "targets:"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, out.String())
		}
	}
	if err := run([]string{"-rate", "0"}, &out); err == nil {
		t.Error("run accepted -rate 0")
	}
}

func TestParseSchedstat(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"5942627 8232024 3\n", 8232024, true},
		{"1 2", 2, true},
		{"1", 0, false},
		{"", 0, false},
		{"1 x 3", 0, false},
		{"1 -4 3", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseSchedstat(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseSchedstat(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
