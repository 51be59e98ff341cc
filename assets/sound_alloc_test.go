//go:build !race

package assets_test

import "testing"

// Resolving a sound handle, as a system does for every sound it plays,
// allocates nothing.
func TestAudioSoundAllocatesNothing(t *testing.T) {
	lib := newLibrary(t)
	h, err := lib.AddSound(beep(t, "s", 440))
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		if _, err := lib.AudioSound(h); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%g allocations per AudioSound, want 0", allocs)
	}
}
