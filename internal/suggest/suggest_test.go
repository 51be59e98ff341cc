package suggest_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/internal/suggest"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
		{"recovry", "recovery", 1},
		{"paddel", "paddle", 2},
		{"Space", "space", 1}, // case counts here; Nearest ignores it
		{"µs", "us", 1},       // runes, not bytes
		{"flaw", "lawn", 2},
	}
	for _, tt := range tests {
		if got := suggest.Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := suggest.Distance(tt.b, tt.a); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestLimit(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 2}, {"ab", 2}, {"abcdefgh", 2}, {"abcdefghi", 3}, {strings.Repeat("x", 30), 10}, {"µµµµµµµµµ", 3},
	}
	for _, tt := range tests {
		if got := suggest.Limit(tt.s); got != tt.want {
			t.Errorf("Limit(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestNearest(t *testing.T) {
	keys := []string{"timing.mode", "timing.recovery", "timing.recovery_cap", "timing.recovery_prefix", "window.width"}
	tests := []struct {
		s    string
		cand []string
		n    int
		want []string
	}{
		{"timing.recovry", keys, 3, []string{"timing.recovery"}},
		{"TIMING.MODE", keys, 3, []string{"timing.mode"}},
		{"timing.recovery_cp", keys, 2, []string{"timing.recovery_cap", "timing.recovery"}},
		{"volume", keys, 3, nil},
		{"", keys, 3, nil},
		{"timing.mode", keys, 0, nil},
		{"ab", []string{"ad", "ac", "ab", "ab"}, 3, []string{"ab", "ac", "ad"}}, // ties alphabetical, duplicates once
		{"ab", []string{"ad", "ac", "ae"}, 2, []string{"ac", "ad"}},
		{strings.Repeat("z", 10000), keys, 3, nil},
	}
	for _, tt := range tests {
		if got := suggest.Nearest(tt.s, tt.cand, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("Nearest(%.20q, n=%d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestNearestBy(t *testing.T) {
	// Aliases stand for canonical names; a name counts at its nearest spelling.
	spellings := [][2]string{{"escape", "Escape"}, {"esc", "Escape"}, {"enter", "Enter"}, {"return", "Enter"}}
	seq := func(yield func(string, string) bool) {
		for _, p := range spellings {
			if !yield(p[0], p[1]) {
				return
			}
		}
	}
	tests := []struct {
		s    string
		want []string
	}{
		{"esq", []string{"Escape"}},
		{"retrun", []string{"Enter"}},
		{"entr", []string{"Enter"}},
	}
	for _, tt := range tests {
		if got := suggest.NearestBy(tt.s, seq, 3); !slices.Equal(got, tt.want) {
			t.Errorf("NearestBy(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestBest(t *testing.T) {
	keys := []string{"timing.debt", "timing.debt.gain", "timing.debt.pacing", "game.levels", "game.lives"}
	tests := []struct {
		s    string
		want []string
	}{
		{"timing.debt.gian", []string{"timing.debt.gain"}},
		{"game.lifes", []string{"game.lives"}},
		{"x", nil},
	}
	for _, tt := range tests {
		if got := suggest.Best(tt.s, keys); !slices.Equal(got, tt.want) {
			t.Errorf("Best(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
	if got, want := suggest.Best("c", []string{"b", "a", "d", "e"}), []string{"a", "b", "d"}; !slices.Equal(got, want) {
		t.Errorf("Best with ties = %q, want the first three alphabetically %q", got, want)
	}
}

func TestClosest(t *testing.T) {
	regions := []string{"ball", "brick", "paddle"}
	tests := []struct{ s, want string }{
		{"paddel", "paddle"}, {"bal", "ball"}, {"score", ""},
	}
	for _, tt := range tests {
		if got := suggest.Closest(tt.s, regions); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestDidYouMeanAndHint(t *testing.T) {
	tests := []struct {
		matches []string
		quote   bool
		want    string
	}{
		{nil, false, ""},
		{[]string{"a"}, false, "did you mean a?"},
		{[]string{"a", "b"}, true, `did you mean "a" or "b"?`},
		{[]string{"a", "b", "c"}, false, "did you mean a, b or c?"},
	}
	for _, tt := range tests {
		if got := suggest.DidYouMean(tt.matches, tt.quote); got != tt.want {
			t.Errorf("DidYouMean(%q, %v) = %q, want %q", tt.matches, tt.quote, got, tt.want)
		}
	}
	if got, want := suggest.Hint("paddel", []string{"ball", "paddle"}, true), ` (did you mean "paddle"?)`; got != want {
		t.Errorf("Hint = %q, want %q", got, want)
	}
	if got := suggest.Hint("score", []string{"ball", "paddle"}, true); got != "" {
		t.Errorf("Hint for a far name = %q, want none", got)
	}
}

func ExampleHint() {
	regions := []string{"ball", "brick", "paddle"}
	fmt.Printf("no region named %q%s\n", "paddel", suggest.Hint("paddel", regions, true))
	// Output: no region named "paddel" (did you mean "paddle"?)
}

func BenchmarkNearest(b *testing.B) {
	keys := []string{"timing.mode", "timing.interval", "timing.step", "timing.rate", "timing.max_fixed_updates",
		"timing.recovery", "timing.recovery_prefix", "timing.recovery_cap", "window.width", "window.height"}
	b.ReportAllocs()
	for b.Loop() {
		suggest.Nearest("timing.recovry", keys, 3)
	}
}
