package runtime

import (
	"time"

	"github.com/metronome-go/metronome/timing"
)

// A PresentSource is where a [PresentWatch] reads the presents: a
// *[GameRuntime] (its Stats and TelemetryFrames), or a test's fake.
type PresentSource interface {
	Stats() Stats
	TelemetryFrames(dst []timing.TelemetryFrame) []timing.TelemetryFrame
}

// PresentWatch follows how evenly a runtime presents its frames from a
// moment on (a match's first tick, for its pacing line): how many it
// presented and the longest interval between two, read from the frame
// telemetry ring. Look at it once per platform cycle (a [Maintenance]
// service); a look allocates nothing. Platform thread.
type PresentWatch struct {
	src    PresentSource
	seen   uint64 // FramesPresented at the latest look
	frames []timing.TelemetryFrame
	// longest is the longest interval between two presents counted;
	// counted is how many were.
	longest time.Duration
	counted uint64
}

// NewPresentWatch returns a watch of src's presents, counting none yet.
func NewPresentWatch(src PresentSource) *PresentWatch {
	return &PresentWatch{src: src, frames: make([]timing.TelemetryFrame, 0, timing.TelemetryWindow)}
}

// Look takes the presents made since the last look; counting says
// whether they count yet (the presents before are passed over). The
// first present counted follows one from before counting began, so its
// interval is not counted.
func (p *PresentWatch) Look(counting bool) {
	n := p.src.Stats().FramesPresented
	fresh := n - p.seen
	p.seen = n
	if fresh == 0 || !counting {
		return
	}
	p.frames = p.src.TelemetryFrames(p.frames[:0])
	from := max(len(p.frames)-int(min(fresh, uint64(len(p.frames)))), 0)
	if p.counted == 0 {
		from++
	}
	for _, f := range p.frames[min(from, len(p.frames)):] {
		p.longest = max(p.longest, f.Interval)
	}
	p.counted += fresh
}

// Count is how many presents were counted.
func (p *PresentWatch) Count() uint64 { return p.counted }

// Longest is the longest interval between two presents counted.
func (p *PresentWatch) Longest() time.Duration { return p.longest }
