package assets

import (
	"fmt"
	"image"
)

// Packer places rectangles into a fixed-size area with the skyline
// bottom-left heuristic: it keeps the upper outline of what has been placed
// and puts each new rectangle where its top edge ends lowest, then leftmost.
// It never moves or frees a placed rectangle; [Packer.Reset] empties it.
//
// A Packer is not safe for concurrent use.
type Packer struct {
	w, h    int
	sky     []skySeg // sorted by x, covering [0, w) without gaps
	scratch []skySeg
	used    int // area of placed rectangles
}

type skySeg struct{ x, y, w int }

// NewPacker returns an empty packer for a width x height area.
// It panics if either side is not positive.
func NewPacker(width, height int) *Packer {
	if width <= 0 || height <= 0 {
		panic(fmt.Sprintf("assets: NewPacker(%d, %d): both sides must be at least 1", width, height))
	}
	p := &Packer{w: width, h: height}
	p.Reset()
	return p
}

// Size returns the packer's area.
func (p *Packer) Size() (width, height int) { return p.w, p.h }

// Used returns the total area of the rectangles placed since the last reset.
func (p *Packer) Used() int { return p.used }

// Reset forgets every placed rectangle.
func (p *Packer) Reset() {
	p.sky = append(p.sky[:0], skySeg{0, 0, p.w})
	p.used = 0
}

// Pack finds room for a w x h rectangle and returns its top-left corner, or
// false when it does not fit anywhere (or w or h is not positive).
func (p *Packer) Pack(w, h int) (image.Point, bool) {
	if w <= 0 || h <= 0 || w > p.w || h > p.h {
		return image.Point{}, false
	}
	best, bestY, bestWaste := -1, p.h+1, 0
	for i := range p.sky {
		if p.sky[i].y > bestY {
			continue // resting here cannot be lower than the best so far
		}
		y, waste, ok := p.fit(i, w, h)
		if !ok {
			continue
		}
		if y < bestY || (y == bestY && waste < bestWaste) {
			best, bestY, bestWaste = i, y, waste
		}
	}
	if best < 0 {
		return image.Point{}, false
	}
	at := image.Point{p.sky[best].x, bestY}
	p.place(best, at, w, h)
	p.used += w * h
	return at, true
}

// fit reports the y at which a w x h rectangle whose left edge is at
// segment i would rest, and the area it would leave unusable beneath it.
func (p *Packer) fit(i, w, h int) (y, waste int, ok bool) {
	x := p.sky[i].x
	if x+w > p.w {
		return 0, 0, false
	}
	for j := i; j < len(p.sky) && p.sky[j].x < x+w; j++ {
		y = max(y, p.sky[j].y)
	}
	if y+h > p.h {
		return 0, 0, false
	}
	for j := i; j < len(p.sky) && p.sky[j].x < x+w; j++ {
		s := p.sky[j]
		right := min(s.x+s.w, x+w)
		waste += (right - s.x) * (y - s.y)
	}
	return y, waste, true
}

// place raises the skyline over [at.X, at.X+w) to at.Y+h.
func (p *Packer) place(i int, at image.Point, w, h int) {
	end := at.X + w
	out := append(p.scratch[:0], p.sky[:i]...)
	out = append(out, skySeg{at.X, at.Y + h, w})
	for _, s := range p.sky[i:] {
		if s.x+s.w <= end {
			continue // fully covered
		}
		if s.x < end { // partly covered: keep the part to the right
			s.w -= end - s.x
			s.x = end
		}
		out = append(out, s)
	}
	// Merge neighbours of equal height so the skyline stays short.
	merged := out[:1]
	for _, s := range out[1:] {
		last := &merged[len(merged)-1]
		if last.y == s.y {
			last.w += s.w
			continue
		}
		merged = append(merged, s)
	}
	p.scratch = p.sky
	p.sky = merged
}
