package demo

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Report is the demo's timing report: the runtime's report (counters,
// telemetry, scheduler statistics with the ledger, and the recent frames)
// with the ledger checked, what reached the screen, and the settings of
// the run. Its JSON follows the runtime's ([runtime.ReportVersion]): snake
// case, units in the keys, each figure once.
type Report struct {
	runtime.Report
	Ledger       LedgerReport       `json:"ledger_check"`
	Presentation PresentationReport `json:"presentation"`
	Settings     ReportSettings     `json:"settings"`
	// Load is the background load at the start, when there was one.
	Load *LoadReport `json:"load,omitempty"`
}

// PresentationReport says how the latest frames reached the screen.
type PresentationReport struct {
	// PresentsPerSecond and TicksPerSecond are measured over the telemetry
	// window (the latest 120 presents): the presents, and the updates they
	// ran, over the sum of their intervals. Presents follow the frame cap
	// (or the display), not the tick rate, when frames are interpolated.
	PresentsPerSecond float64 `json:"presents_per_second"`
	TicksPerSecond    float64 `json:"ticks_per_second"`
	// Interpolation says whether frames were interpolated at each present
	// when the report was made; Alpha is the latest present's alpha.
	Interpolation bool    `json:"interpolation"`
	Alpha         float32 `json:"alpha"`
	// Judder is the motion probe's figure ([PresentSummary.Judder]) over
	// JudderSteps displacements; both zero without the probe.
	Judder      float64 `json:"judder"`
	JudderSteps int     `json:"judder_steps"`
}

// LedgerReport checks the scheduler's ledger (the report's
// "timing.ledger", where each bucket of real time is) and adds it up:
// DroppedNS over every policy, PendingNS the debt and the remainder.
// Balanced is true when real + adjusted = simulated + dropped + suspended +
// pending holds exactly; ImbalanceNS is the difference otherwise.
type LedgerReport struct {
	DroppedNS   int64 `json:"dropped_ns"`
	PendingNS   int64 `json:"pending_ns"`
	Balanced    bool  `json:"balanced"`
	ImbalanceNS int64 `json:"imbalance_ns"`
}

// ReportSettings are the settings a run ended with. The fixed step is the
// scheduler's, in the report's timing section.
type ReportSettings struct {
	Mode            string `json:"mode"`
	TimingMode      string `json:"timing_mode"`
	Recovery        string `json:"recovery"`
	IntervalNS      int64  `json:"interval_ns"`
	MaxFixedUpdates int    `json:"max_fixed_updates"`
	RecoveryPrefix  int    `json:"recovery_prefix"`
	RecoveryCapNS   int64  `json:"recovery_cap_ns"`
	FrameCapNS      int64  `json:"frame_cap_ns"`
	Delivery        string `json:"delivery"`
}

// Report gathers the report of the game's session, during or after it;
// the zero Report before Setup.
func (g *Game) Report() Report {
	if g.rt == nil {
		return Report{}
	}
	r := MakeReport(g.rt.Report(), g.rt.Options())
	ps := g.PresentSummary()
	r.Presentation.Interpolation = g.Interpolation()
	r.Presentation.Alpha, r.Presentation.Judder, r.Presentation.JudderSteps = ps.Alpha, ps.Judder, ps.Steps
	if g.atlas != nil {
		lr := g.atlas.reportWith(r.Telemetry.Frames, r.Frames)
		r.Load = &lr
	}
	return r
}

// MakeReport builds the report from a runtime report and the options the
// run ended with.
func MakeReport(r runtime.Report, o runtime.Options) Report {
	l := r.Timing.Ledger
	off := ledgerImbalance(l)
	var pr PresentationReport
	var span time.Duration
	ticks := 0
	for _, f := range r.Frames {
		span += f.Interval
		ticks += f.Ticks
	}
	if span > 0 {
		pr.PresentsPerSecond = float64(len(r.Frames)) / span.Seconds()
		pr.TicksPerSecond = float64(ticks) / span.Seconds()
	}
	return Report{
		Report: r,
		Ledger: LedgerReport{
			DroppedNS: int64(l.Dropped()), PendingNS: int64(l.Pending()),
			Balanced: off == 0, ImbalanceNS: int64(off),
		},
		Presentation: pr,
		Settings: ReportSettings{
			Mode: o.Mode.String(), TimingMode: o.Timing.Mode.String(), Recovery: o.Timing.Recovery.String(),
			IntervalNS:      int64(o.Timing.Interval),
			MaxFixedUpdates: o.Timing.MaxFixedUpdates, RecoveryPrefix: o.Timing.RecoveryPrefix,
			RecoveryCapNS: int64(o.Timing.RecoveryCap), FrameCapNS: int64(o.FrameCap),
			Delivery: o.Polling.Delivery.String(),
		},
	}
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// SVG chart geometry.
const (
	svgWidth   = 960
	svgHeight  = 520
	svgLeft    = 70
	svgPlotW   = svgWidth - svgLeft - 30
	svgBarW    = float64(svgPlotW) / timing.TelemetryWindow
	svgIntTop  = 60
	svgIntH    = 200
	svgLateTop = 290
	svgLateH   = 70
	svgDebtTop = 400
	svgDebtH   = 90
)

// WriteSVG draws the report's frames as an SVG chart: frame intervals
// coloured by pacing lateness, the lateness itself, and the debt after each
// frame, with the run's totals in the title.
func (r *Report) WriteSVG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	frames := r.Frames
	offset := timing.TelemetryWindow - len(frames)

	maxInt := 50 * time.Millisecond
	maxLate := 5 * time.Millisecond
	for _, f := range frames {
		maxInt = max(maxInt, f.Interval)
		maxLate = max(maxLate, f.Lateness)
	}
	maxInt = roundUp(maxInt, 10*time.Millisecond)
	maxLate = roundUp(maxLate, time.Millisecond)
	debtS := debtScale(frames)

	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", svgWidth, svgHeight, svgWidth, svgHeight)
	p(`<rect width="100%%" height="100%%" fill="#11151f"/>` + "\n")
	p(`<text x="%d" y="22" fill="#e8eefc" font-size="15">Metronome timing report: %s, %s, %s</text>`+"\n", svgLeft, esc(r.Settings.Mode), esc(r.Settings.TimingMode), esc(r.Settings.Recovery))
	p(`<text x="%d" y="42" fill="#b8c2d8">%d frames presented, %d updates, dropped %s, suspended %s, ledger %s</text>`+"\n",
		svgLeft, r.Runtime.FramesPresented, r.Runtime.Updates, durText(time.Duration(r.Ledger.DroppedNS)), durText(r.Timing.Ledger.Suspended), balancedText(r.Ledger))

	// Frame intervals.
	axis(bw, "frame interval", svgIntTop, svgIntH, maxInt)
	for _, ref := range []time.Duration{16_666_667, 33_333_333} {
		if ref < maxInt {
			y := svgIntTop + svgIntH - scaled(ref, maxInt, svgIntH)
			p(`<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ffffff" stroke-opacity="0.35" stroke-dasharray="4 3"/>`+"\n", svgLeft, svgLeft+svgPlotW, y, y)
		}
	}
	for i, f := range frames {
		h := scaled(f.Interval, maxInt, svgIntH)
		c := barColor(f)
		p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="rgb(%d,%d,%d)"><title>frame %d: interval %s, lateness %s, %d ticks</title></rect>`+"\n",
			barX(i+offset), svgIntTop+svgIntH-h, svgBarW*0.8, h, int(c.R*255), int(c.G*255), int(c.B*255), i, durText(f.Interval), durText(f.Lateness), f.Ticks)
	}
	// Lateness.
	axis(bw, "pacing lateness", svgLateTop, svgLateH, maxLate)
	for i, f := range frames {
		if h := scaled(f.Lateness, maxLate, svgLateH); h > 0 {
			p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f04d40"/>`+"\n", barX(i+offset), svgLateTop+svgLateH-h, svgBarW*0.8, h)
		}
	}
	// Debt, up when behind.
	zero := float64(svgDebtTop + svgDebtH/2)
	p(`<text x="%d" y="%d" fill="#b8c2d8">debt (up: behind, down: ahead), full scale ±%s</text>`+"\n", svgLeft, svgDebtTop-6, durText(debtS))
	p(`<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ffffff" stroke-opacity="0.5"/>`+"\n", svgLeft, svgLeft+svgPlotW, zero, zero)
	for i, f := range frames {
		d := f.Debt
		if d == 0 {
			continue
		}
		fill, y := "#f2734d", 0.0
		h := scaled(abs(d), debtS, svgDebtH/2)
		if d > 0 {
			y = zero - h
		} else {
			fill, y = "#6699f2", zero
		}
		p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`+"\n", barX(i+offset), y, svgBarW*0.8, h, fill)
	}
	p("</svg>\n")
	return bw.Flush()
}

func axis(w io.Writer, label string, top, height int, full time.Duration) {
	fmt.Fprintf(w, `<text x="%d" y="%d" fill="#b8c2d8">%s (last %d frames, newest at the right)</text>`+"\n", svgLeft, top-6, label, timing.TelemetryWindow)
	fmt.Fprintf(w, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#8893aa"/>`+"\n", svgLeft, svgLeft+svgPlotW, top+height, top+height)
	fmt.Fprintf(w, `<text x="%d" y="%d" fill="#8893aa" text-anchor="end">%s</text>`+"\n", svgLeft-6, top+10, durText(full))
	fmt.Fprintf(w, `<text x="%d" y="%d" fill="#8893aa" text-anchor="end">0</text>`+"\n", svgLeft-6, top+height)
}

func barX(i int) float64 { return svgLeft + float64(i)*svgBarW }

func scaled(d, full time.Duration, height int) float64 {
	if d <= 0 || full <= 0 {
		return 0
	}
	return min(float64(d)/float64(full), 1) * float64(height)
}

func roundUp(d, unit time.Duration) time.Duration { return (d + unit - 1) / unit * unit }

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func balancedText(l LedgerReport) string {
	if l.Balanced {
		return "balanced"
	}
	return "off by " + strconv.FormatInt(l.ImbalanceNS, 10) + " ns"
}

// esc escapes text for SVG.
func esc(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			out = append(out, "&lt;"...)
		case '>':
			out = append(out, "&gt;"...)
		case '&':
			out = append(out, "&amp;"...)
		case '"':
			out = append(out, "&quot;"...)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}
