package assets

import "github.com/metronome-go/metronome/media"

// ParseFontSfnt is [Library.ParseFont] forced through the sfnt reader that
// CFF-outline fonts use, whatever the outlines. sfnt reads TrueType fonts
// too, so tests run one TrueType font (with a kern table they build) through
// both readers and compare: that checks the sfnt path's kerning, quadratic
// curves and metrics, which the CFF test font alone does not exercise.
func (l *Library) ParseFontSfnt(name string, data []byte, size float64) (Font, error) {
	c, err := parseCFF(data)
	if err != nil {
		return Font{}, &media.Error{Pkg: "assets", Op: "load font", Path: name, Err: err}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.addFontLocked(&parsedFont{name: name, cff: c}, size)
}
