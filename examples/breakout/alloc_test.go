//go:build !race

package main

import (
	"testing"
)

// TestHUDAllocatesNothing checks the HUD's text helper: a score that has
// not changed keeps its string, so the cosmetic HUD system allocates
// nothing per tick.
func TestHUDAllocatesNothing(t *testing.T) {
	old := set("", "SCORE ", 120)
	if old != "SCORE 120" {
		t.Fatalf("set: got %q, want %q", old, "SCORE 120")
	}
	if got := testing.AllocsPerRun(100, func() { old = set(old, "SCORE ", 120) }); got != 0 {
		t.Errorf("set with an unchanged score: %v allocations, want 0", got)
	}
}
