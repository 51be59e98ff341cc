package audio

import (
	"sync/atomic"
	"time"
)

// Stats are the mixer's counters, readable from any goroutine with
// [Mixer.Stats]. Together they make the timing policy visible: every play
// request ends up exactly once in Placed, Late, Dropped or Refused (or
// QueueFull, if it never reached the mixer).
type Stats struct {
	// Placed counts sounds that started exactly at their timeline frame.
	Placed uint64
	// Late counts sounds whose frame was already past and that played at
	// once instead: within the tolerance, or essential.
	Late uint64
	// Dropped counts sounds past by more than the tolerance and not
	// essential.
	Dropped uint64
	// WorstLate is the largest lateness of a sound that played late.
	WorstLate time.Duration
	// Stolen counts voices cut to make room under the voice limit;
	// Refused counts sounds that found every voice busy with a higher
	// priority (or every stream slot busy).
	Stolen, Refused uint64
	// QueueFull counts requests refused because the command queue was
	// full.
	QueueFull uint64
	// Underruns counts gaps in the device's output that the device layer
	// reported with [Mixer.Skip]; SkippedFrames is their total length.
	Underruns, SkippedFrames uint64
	// Realigns counts origin corrections by the device layer (see
	// [Mixer.ShiftOrigin]); Realigned is their sum.
	Realigns  uint64
	Realigned time.Duration
	// Starved counts frames a playing stream could not supply in time
	// (its decoder fell behind); StreamErrors counts streams that ended on
	// a decoding error.
	Starved, StreamErrors uint64
	// Voices and Streams are the busy voice and stream slots (playing or
	// waiting for their start frame) after the last buffer; PeakVoices is
	// the most sound voices ever busy at once.
	Voices, Streams, PeakVoices int
	// Frames is the device timeline position: the next frame to render.
	Frames int64
	// Buffers counts Render calls.
	Buffers uint64
}

// stats holds the counters. The mixer goroutine writes them with atomic
// stores; any goroutine reads them.
type stats struct {
	placed, late, dropped atomic.Uint64
	worstLate             atomic.Int64
	stolen, refused       atomic.Uint64
	queueFull             atomic.Uint64
	underruns, skipped    atomic.Uint64
	realigns              atomic.Uint64
	realigned             atomic.Int64
	starved, streamErrs   atomic.Uint64
	voices, streams, peak atomic.Int64
	frames                atomic.Int64
	buffers               atomic.Uint64
}

func (s *stats) snapshot() Stats {
	return Stats{
		Placed:        s.placed.Load(),
		Late:          s.late.Load(),
		Dropped:       s.dropped.Load(),
		WorstLate:     time.Duration(s.worstLate.Load()),
		Stolen:        s.stolen.Load(),
		Refused:       s.refused.Load(),
		QueueFull:     s.queueFull.Load(),
		Underruns:     s.underruns.Load(),
		SkippedFrames: s.skipped.Load(),
		Realigns:      s.realigns.Load(),
		Realigned:     time.Duration(s.realigned.Load()),
		Starved:       s.starved.Load(),
		StreamErrors:  s.streamErrs.Load(),
		Voices:        int(s.voices.Load()),
		Streams:       int(s.streams.Load()),
		PeakVoices:    int(s.peak.Load()),
		Frames:        s.frames.Load(),
		Buffers:       s.buffers.Load(),
	}
}
