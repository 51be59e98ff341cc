package main

import (
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
