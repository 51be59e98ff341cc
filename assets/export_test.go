package assets

import (
	"github.com/metronome-go/metronome/assets/internal/cffont"
	"github.com/metronome-go/metronome/media"
)

// ParseFontSfnt is [Library.ParseFont] forced through the sfnt reader that
// CFF-outline fonts use, whatever the outlines. sfnt reads TrueType fonts
// too, so tests run one TrueType font (with a kern table they build) through
// both readers and compare: that checks the sfnt path's kerning, quadratic
// curves and metrics, which the CFF test font alone does not exercise.
func (l *Library) ParseFontSfnt(name string, data []byte, size float64) (Font, error) {
	c, err := cffont.ParseFont(data)
	if err != nil {
		return Font{}, &media.Error{Pkg: "assets", Op: "load font", Path: name, Err: err}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.addFontLocked(&parsedFont{name: name, cff: c}, size)
}

// LockFree reports whether the library's lock is free at this instant.
func (l *Library) LockFree() bool {
	if !l.mu.TryLock() {
		return false
	}
	l.mu.Unlock()
	return true
}

// HoldLock takes the library's lock, as a goroutine placing an image
// would, and returns the function that lets it go.
func (l *Library) HoldLock() (unlock func()) {
	l.mu.Lock()
	return l.mu.Unlock
}

// OnContended makes every wait for the library's lock call f first (nil:
// nothing). Set it before the goroutines that take the lock start.
func OnContended(f func()) { testHookContended = f }

// OnWaitWriters makes every upload that waits for an image's copy into a
// page call f first (nil: nothing).
func OnWaitWriters(f func()) { testHookWaitWriters = f }

// ParsedFonts is how many font files the library has parsed for
// ParseFont, DefaultFont and GoFont.
func (l *Library) ParsedFonts() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.parsed)
}
