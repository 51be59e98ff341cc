package inspect

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/metronome-go/metronome/recording"
)

// A recording keeps, beside its ticks, what the session did that a
// replay does not do again: the frames the game presented (noted at
// each chunk the recording writer handed over, half a second of ticks)
// and a networked match's figures (about once a second). The timeline
// shows both as spans of ticks, the same spans a live game's presents
// have ([Live.Presents]).

// NetSpan is a networked match's figures over the match's ticks From to
// To (exclusive): NetFigures are the figures the match had counted from
// its start when it reached tick To, so the difference from the span
// before is what happened in this one (the bytes sent, the rollbacks).
type NetSpan struct {
	From uint64 `json:"from"`
	To   uint64 `json:"to"`
	recording.NetFigures
}

// Figures are a recording's presents and net figures, in tick order.
type Figures struct {
	Presents []PresentSpan
	Net      []NetSpan
	// Match says the recording is a networked match's: its ticks are the
	// match's confirmed ticks (/api/session's match).
	Match bool
	// ticks are the frames presented after each tick (Tick.Presented).
	ticks tickPresents
}

// tickPresents are the frames presented after each tick and before the
// next, from the recording's Tick.Presented (format 9 on, a solo
// session's), which counts those before its own tick: a byte a tick,
// the rare count above 254 in a map of its own. A tick past the end of
// counts is not known (yet: a live game's last tick).
type tickPresents struct {
	counts []uint8
	big    map[uint64]int
}

// set notes that n frames were presented after tick t, which is the
// next tick to be given one.
func (p *tickPresents) set(t uint64, n int) {
	if uint64(len(p.counts)) != t {
		return // a gap: the recording's ticks are numbered from 0
	}
	if n >= math.MaxUint8 {
		if p.big == nil {
			p.big = map[uint64]int{}
		}
		p.big[t] = n
		n = math.MaxUint8
	}
	p.counts = append(p.counts, uint8(n))
}

// at returns the frames presented after tick t and whether they are
// known.
func (p *tickPresents) at(t uint64) (int, bool) {
	if t >= uint64(len(p.counts)) {
		return 0, false
	}
	if n := p.counts[t]; n < math.MaxUint8 {
		return int(n), true
	}
	return p.big[t], true
}

// ReadFigures reads r to its end and returns its presents (none before
// format 8, or for a recording whose writer watched none; per tick from
// format 9 on, in [Replay.Timeline]'s Tick.Presented) and its net
// figures (a match's, format 8 on). A recording cut short gives what it
// holds up to the cut, with the reader's error.
func ReadFigures(r *recording.Reader) (Figures, error) {
	fr := newFigureReader(r)
	for {
		it, err := r.Next()
		if errors.Is(err, io.EOF) {
			return fr.figures(), nil
		}
		if err != nil {
			return fr.figures(), fmt.Errorf("inspect: reading the recording's figures: %w", err)
		}
		fr.add(it)
	}
}

// figureReader gathers a recording's figures from its items, in order:
// ReadFigures over a whole recording, a [Live] over a match's as it
// grows.
type figureReader struct {
	f    Figures
	pres recording.Presents
	tick int64
	// perTick says the recording's ticks count the frames presented
	// (format 9 on, a solo session's); ticks are the ticks read, and
	// presented the sum of their Presented.
	perTick   bool
	ticks     uint64
	presented uint64
}

// newFigureReader returns a figureReader of r's items.
func newFigureReader(r *recording.Reader) figureReader {
	match := r.Header().Net != nil
	return figureReader{f: Figures{Match: match}, perTick: !match && r.Version() >= 9}
}

func (fr *figureReader) add(it recording.Item) {
	switch v := it.(type) {
	case *recording.Tick:
		if !fr.perTick {
			return
		}
		if fr.ticks > 0 {
			fr.f.ticks.set(fr.ticks-1, v.Presented)
		}
		fr.ticks++
		fr.presented += uint64(v.Presented)
	case *recording.End:
		// The frames presented after the last tick: the writer's last
		// note of the presents, at Finish, less those the ticks counted.
		if fr.perTick && fr.ticks > 0 && fr.pres.Updates == fr.ticks && fr.pres.Frames >= fr.presented {
			fr.f.ticks.set(fr.ticks-1, int(fr.pres.Frames-fr.presented))
		}
	case *recording.Presents:
		if v.Updates > fr.pres.Updates && v.Frames >= fr.pres.Frames {
			fr.f.Presents = append(fr.f.Presents, PresentSpan{From: fr.pres.Updates, To: v.Updates, Presented: v.Frames - fr.pres.Frames})
		}
		fr.pres = *v
	case *recording.NetFigures:
		to := max(v.Tick, fr.tick)
		fr.f.Net = append(fr.f.Net, NetSpan{From: uint64(max(fr.tick, 0)), To: uint64(max(to, 0)), NetFigures: *v})
		fr.tick = to
	}
}

// figures returns what fr gathered, empty lists rather than nil.
func (fr *figureReader) figures() Figures {
	f := fr.f
	if f.Presents == nil {
		f.Presents = []PresentSpan{}
	}
	if f.Net == nil {
		f.Net = []NetSpan{}
	}
	return f
}

// SetFigures gives the timeline the recording's figures ([ReadFigures]):
// [Replay.Presents] and [Replay.Net] return them. The Replay's
// goroutine calls it, after the first pass.
func (r *Replay) SetFigures(f Figures) { r.figures = f }

// Presents returns the recording's presents over spans of ticks, in
// tick order, as [Replay.SetFigures] gave them.
func (r *Replay) Presents() []PresentSpan { return r.figures.Presents }

// Net returns the spans of the recorded match's figures that overlap
// ticks from to to (exclusive), in tick order.
func (r *Replay) Net(from, to uint64) []NetSpan {
	out := []NetSpan{}
	for _, s := range r.figures.Net {
		if s.To > from && s.From < to || s.From == s.To && s.From >= from && s.From < to {
			out = append(out, s)
		}
	}
	return out
}
