package demo

import (
	"strconv"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// The overlay's text blocks.
const (
	textStats = iota
	textPanel
	textIntervals
	textDebt
	textCount
)

// The overlay's graphs.
const (
	graphInterval = iota // frame interval bars, coloured by lateness
	graphLateness        // pacing lateness bars
	graphDebt            // debt after each frame, up when behind
	graphCount
)

// Graph geometry in pixels and scales.
const (
	barWidth       = 3
	graphWidth     = barWidth * timing.TelemetryWindow
	intervalHeight = 90
	intervalScale  = 50 * time.Millisecond // full height of the interval graph
	latenessHeight = 24
	latenessScale  = 5 * time.Millisecond
	debtHalf       = 34                     // pixels above and below the debt graph's zero line
	debtMinScale   = 100 * time.Millisecond // the debt graph's smallest full scale
	overlayRefresh = 250 * time.Millisecond // text refresh period, in real time
)

// overlayText marks one of the overlay's text blocks.
type overlayText struct{ Role int }

// overlayBar marks one bar of a graph; Index 0 is the oldest frame.
type overlayBar struct{ Graph, Index int }

// overlayStatic marks the backdrops and reference lines.
type overlayStatic struct{ Role int }

const (
	staticStatsBack = iota
	staticPanelBack
	staticGraphBack
	staticFrameLine  // 1/60 s in the interval graph
	staticFrameLine2 // 1/30 s
	staticDebtZero
	staticProbeHub // the centre the motion probe circles
	staticCount
)

// overlay draws the timing overlay, the graphs and the panel as ordinary
// entities with Text and Sprite components, refreshed by a PostUpdate
// system on the simulation side.
type overlay struct {
	g *Game

	texts   *ecs.Filter3[ecs.Transform, ecs.Text, overlayText]
	bars    *ecs.Filter3[ecs.Transform, ecs.Sprite, overlayBar]
	statics *ecs.Filter3[ecs.Transform, ecs.Sprite, overlayStatic]
	probes  *ecs.Filter3[ecs.Transform, ecs.Sprite, probeMarker]

	frames []timing.TelemetryFrame
	buf    [textCount][]byte

	// Refresh bookkeeping: real time since the last text refresh and the
	// counters then, for FPS and TPS.
	sinceRefresh          time.Duration
	refreshed             bool
	dirty                 bool
	lastReal              time.Duration
	lastTicks, lastFrames uint64
	fps, tps              float64
	wasHidden             bool

	// keys is the overlay's list of keys, saveKey the save action's first
	// key, both made at the first tick from the bindings then in force.
	keys    []byte
	saveKey string

	// The latest tick with input edges.
	inputLine []byte
	presses   [input.ButtonCount + 1]int

	// Panel geometry of the latest layout, for mouse clicks.
	panelX, panelY, panelW, lineH float32
	// The centre of the motion probe's circle.
	probeX, probeY float32
}

func newOverlay(g *Game) *overlay {
	w := g.app.World()
	return &overlay{
		g:       g,
		texts:   ecs.NewFilter3[ecs.Transform, ecs.Text, overlayText](w),
		bars:    ecs.NewFilter3[ecs.Transform, ecs.Sprite, overlayBar](w),
		statics: ecs.NewFilter3[ecs.Transform, ecs.Sprite, overlayStatic](w),
		probes:  ecs.NewFilter3[ecs.Transform, ecs.Sprite, probeMarker](w),
		frames:  make([]timing.TelemetryFrame, 0, timing.TelemetryWindow),
		lineH:   17,
	}
}

var (
	backdrop  = render2d.Color{R: 0.04, G: 0.05, B: 0.08, A: 0.86}
	textColor = render2d.Color{R: 0.92, G: 0.95, B: 1, A: 1}
	refLine   = render2d.Color{R: 1, G: 1, B: 1, A: 0.35}
	onTime    = render2d.Color{R: 0.3, G: 0.85, B: 0.4, A: 1}
	slightly  = render2d.Color{R: 0.95, G: 0.8, B: 0.25, A: 1}
	late      = render2d.Color{R: 0.95, G: 0.3, B: 0.25, A: 1}
	unpaced   = render2d.Color{R: 0.4, G: 0.65, B: 0.95, A: 1}
	behind    = render2d.Color{R: 0.95, G: 0.45, B: 0.3, A: 1}
	ahead     = render2d.Color{R: 0.4, G: 0.6, B: 0.95, A: 1}
)

// spawn queues the overlay's entities; positions and sizes come with the
// first refresh.
func (ov *overlay) spawn(ctx *ecs.Sys) {
	if m, err := ov.g.lib.Metrics(ov.g.font); err == nil {
		ov.lineH = m.LineHeight
	}
	ov.keys, ov.saveKey = ov.g.keysLine()
	ov.probeX, ov.probeY = probeCentre()
	probe := ctx.Commands.Spawn()
	ecs.With(probe, ecs.At(ov.probeX, ov.probeY))
	s := solid(probeColor, probeSize, probeSize, layerProbe)
	s.Origin = geom.Vec2{X: probeSize / 2, Y: probeSize / 2}
	ecs.With(probe, s)
	ecs.With(probe, probeMarker{})
	// The overlay shows what only the platform knows (frame telemetry), so
	// a replay cannot reproduce it: its entities stay out of the world hash.
	ecs.With(probe, ecs.Unhashed{})
	for role := range textCount {
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.At(0, 0))
		ecs.With(p, ecs.Text{Font: ov.g.font, Color: textColor, Layer: layerText})
		ecs.With(p, overlayText{Role: role})
		ecs.With(p, ecs.Unhashed{})
	}
	for role := range staticCount {
		c, layer := backdrop, layerBackdrop
		if role >= staticFrameLine {
			c, layer = refLine, layerText
		}
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.At(0, 0))
		ecs.With(p, solid(c, 0, 0, int16(layer)))
		ecs.With(p, overlayStatic{Role: role})
		ecs.With(p, ecs.Unhashed{})
	}
	for graph := range graphCount {
		for i := range timing.TelemetryWindow {
			p := ctx.Commands.Spawn()
			ecs.With(p, ecs.At(0, 0))
			ecs.With(p, solid(onTime, barWidth-1, 0, layerBar))
			ecs.With(p, overlayBar{Graph: graph, Index: i})
			ecs.With(p, ecs.Unhashed{})
		}
	}
	ov.dirty = true
}

// update runs after every tick: it notes the tick's input, and on the last
// tick of a batch refreshes the graphs and, four times a second or after a
// change, the text.
func (ov *overlay) update(ctx *ecs.Sys) {
	ov.noteInput(ctx)
	ov.sinceRefresh += ctx.Input.Observed()
	if !ctx.Time.Final {
		return
	}
	hidden := ov.g.hidden
	if hidden != ov.wasHidden {
		ov.wasHidden = hidden
		ov.setHidden(hidden)
	}
	if hidden {
		return
	}
	rt := ov.g.rt
	if rt == nil {
		return
	}
	ov.frames = rt.TelemetryFrames(ov.frames[:0])
	fbw, fbh := ov.g.arena(ctx)
	ov.layoutGraphs(fbh)
	if !ov.dirty && ov.refreshed && ov.sinceRefresh < overlayRefresh {
		return
	}
	ts := ctx.Time.Timing
	rs := rt.Stats()
	ticks := ts.Ticks[0] + ts.Ticks[1] + ts.Ticks[2]
	if real := ts.Ledger.Real - ov.lastReal; real > 0 && ov.refreshed {
		ov.fps = float64(rs.FramesPresented-ov.lastFrames) / real.Seconds()
		ov.tps = float64(ticks-ov.lastTicks) / real.Seconds()
	}
	ov.lastReal, ov.lastTicks, ov.lastFrames = ts.Ledger.Real, ticks, rs.FramesPresented
	ov.sinceRefresh, ov.refreshed, ov.dirty = 0, true, false

	slowU, slowR, stalls := ov.g.LoadState()
	in := overlayInput{
		FPS: ov.fps, TPS: ov.tps, Present: ov.g.PresentSummary(), Interpolation: ov.g.Interpolation(),
		Timing: ts, Telemetry: rt.Telemetry(), Runtime: rs,
		Mode: rt.Mode(), Options: rt.TimingOptions(), Bunnies: ov.g.bunnies.Count(),
		Input: ov.inputLine, SlowUpdate: slowU, SlowRender: slowR, Stalls: stalls,
		Record: rt.RecordStats(), Keys: ov.keys, SaveKey: ov.saveKey,
	}
	ov.g.sound.noteAudio(&in.Audio)
	in.Saved = ov.g.quit.saved
	for _, st := range ov.g.app.Systems() {
		if st.Cosmetic {
			in.CosmeticRuns += st.Runs
			in.CosmeticSkips += st.Skipped
		}
	}
	ov.buf[textStats] = appendStats(ov.buf[textStats][:0], &in)
	if p := ov.g.panel; p != nil {
		ov.buf[textPanel] = p.AppendText(ov.buf[textPanel][:0])
	}
	ov.buf[textIntervals] = append(ov.buf[textIntervals][:0], "frame intervals, last 120 (lines: 1/60 s, 1/30 s); below: pacing lateness (0-5 ms)"...)
	ov.buf[textDebt] = appendDebtLabel(ov.buf[textDebt][:0], debtScale(ov.frames))
	ov.layoutTexts(fbw, fbh)
}

// noteInput keeps a line describing the latest tick that had key or button
// presses: each button with its press count, and the buttons held down.
func (ov *overlay) noteInput(ctx *ecs.Sys) {
	in := ctx.Input
	if in == nil {
		return
	}
	any := false
	for _, r := range in.Records() {
		if r.Kind == input.RecordPress && !r.Synthetic && int(r.Button) < len(ov.presses) {
			ov.presses[r.Button]++
			any = true
		}
	}
	if !any {
		return
	}
	ov.inputLine = appendInputLine(ov.inputLine[:0], ctx.Time.Number, &ov.presses, in.State().Down)
	clear(ov.presses[:])
	ov.dirty = true
}

// appendInputLine formats one tick's presses ("Space x2") and held buttons.
func appendInputLine(dst []byte, tick uint64, presses *[input.ButtonCount + 1]int, down input.ButtonSet) []byte {
	dst = append(dst, "input of tick "...)
	dst = strconv.AppendUint(dst, tick, 10)
	dst = append(dst, ": pressed"...)
	for b, n := range presses {
		if n > 0 {
			dst = append(dst, ' ')
			dst = append(dst, input.Button(b).String()...)
			dst = append(dst, " x"...)
			dst = strconv.AppendInt(dst, int64(n), 10)
		}
	}
	if down.Len() > 0 {
		dst = append(dst, "; down"...)
		for b := 1; b <= input.ButtonCount; b++ {
			if down.Has(input.Button(b)) {
				dst = append(dst, ' ')
				dst = append(dst, input.Button(b).String()...)
			}
		}
	}
	return dst
}

// overlayInput is everything the stats text shows.
type overlayInput struct {
	// FPS is presents per second, TPS ticks (updates) per second.
	FPS, TPS float64
	// Present describes the latest presents; Interpolation says whether
	// they interpolate.
	Present       PresentSummary
	Interpolation bool
	Timing        timing.Stats
	Telemetry     timing.TelemetryStats
	Runtime       runtime.Stats
	Mode          runtime.Mode
	Options       timing.Options
	Bunnies       int
	Input         []byte
	SlowUpdate    bool
	SlowRender    bool
	Stalls        uint64
	// CosmeticRuns and CosmeticSkips count the cosmetic system's runs and
	// the ticks it skipped (quiet or coarse).
	CosmeticRuns, CosmeticSkips uint64
	// Record is the recording's or replay's progress.
	Record runtime.RecordStats
	// Audio is the sound's line.
	Audio audioLine
	// Saved is the bunny count at the start or the latest save: with
	// another count, closing asks first.
	Saved int
	// Keys lists the keys of the demo's actions, SaveKey names the save
	// action's ([Game.keysLine]).
	Keys    []byte
	SaveKey string
}

func appendMS(dst []byte, d time.Duration) []byte {
	dst = strconv.AppendFloat(dst, float64(d)/1e6, 'f', 2, 64)
	return append(dst, " ms"...)
}

// appendStats formats the overlay's statistics block.
func appendStats(dst []byte, in *overlayInput) []byte {
	ts, tel := &in.Timing, &in.Telemetry
	dst = append(dst, "METRONOME  "...)
	dst = append(dst, in.Mode.String()...)
	dst = append(dst, ", "...)
	dst = append(dst, ts.Mode.String()...)
	if ts.Mode == timing.FixedMode {
		dst = append(dst, ' ')
		dst = appendMS(dst, ts.Step)
		dst = append(dst, ", "...)
		dst = append(dst, ts.Recovery.String()...)
		dst = append(dst, ", limit "...)
		dst = strconv.AppendInt(dst, int64(in.Options.MaxFixedUpdates), 10)
	}
	dst = append(dst, "\npresents/s "...)
	dst = strconv.AppendFloat(dst, in.FPS, 'f', 1, 64)
	dst = append(dst, "   ticks/s "...)
	dst = strconv.AppendFloat(dst, in.TPS, 'f', 1, 64)
	dst = append(dst, "   bunnies "...)
	dst = strconv.AppendInt(dst, int64(in.Bunnies), 10)
	dst = append(dst, "\ninterpolation "...)
	dst = append(dst, onOff(in.Interpolation)...)
	dst = append(dst, "   alpha "...)
	dst = strconv.AppendFloat(dst, float64(in.Present.Alpha), 'f', 2, 32)
	dst = append(dst, "   judder "...)
	if in.Present.Steps == 0 {
		dst = append(dst, '-')
	} else {
		dst = strconv.AppendFloat(dst, in.Present.Judder, 'f', 3, 64)
	}
	dst = append(dst, " (orange probe, last "...)
	dst = strconv.AppendInt(dst, probeWindow, 10)
	dst = append(dst, " frame slots; 0 = even)"...)
	dst = append(dst, "\nupdates: variable "...)
	dst = strconv.AppendUint(dst, ts.Ticks[timing.VariableUpdate], 10)
	dst = append(dst, ", fixed "...)
	dst = strconv.AppendUint(dst, ts.Ticks[timing.FixedUpdate], 10)
	dst = append(dst, ", catch-up "...)
	dst = strconv.AppendUint(dst, ts.Ticks[timing.CatchUpUpdate], 10)
	dst = append(dst, " (quiet "...)
	dst = strconv.AppendUint(dst, ts.QuietTicks, 10)
	dst = append(dst, ", merged steps "...)
	dst = strconv.AppendUint(dst, ts.MergedSteps, 10)
	dst = append(dst, ")\ndebt "...)
	dst = strconv.AppendInt(dst, ts.Debt, 10)
	dst = append(dst, " steps ("...)
	dst = appendMS(dst, ts.DebtTime)
	dst = append(dst, ")   rate "...)
	dst = strconv.AppendFloat(dst, ts.Rate, 'f', 3, 64)
	dst = append(dst, "x   acting: "...)
	dst = appendMechanisms(dst, ts.Acting)
	if ts.Enabled != 0 {
		dst = append(dst, " (on: "...)
		dst = appendMechanisms(dst, ts.Enabled)
		dst = append(dst, ')')
	}
	dst = append(dst, "\ndropped "...)
	dst = appendMS(dst, ts.Dropped)
	dst = append(dst, "   suspended "...)
	dst = appendMS(dst, ts.Suspended)
	dst = append(dst, "   ledger "...)
	if off := ledgerImbalance(ts.Ledger); off == 0 {
		dst = append(dst, "balanced"...)
	} else {
		dst = append(dst, "off by "...)
		dst = strconv.AppendInt(dst, int64(off), 10)
		dst = append(dst, " ns"...)
	}
	if ts.Resimulated > 0 || ts.Ledger.Advantage != 0 {
		// Rollback's share of the debt: time spent resimulating, and the
		// frame advantage over the peers (ahead is negative).
		dst = append(dst, "\nrollback: resimulated "...)
		dst = strconv.AppendUint(dst, ts.Resimulated, 10)
		dst = append(dst, " ticks ("...)
		dst = appendMS(dst, ts.Ledger.Resimulation)
		dst = append(dst, ")   advantage debt "...)
		dst = appendMS(dst, ts.Ledger.Advantage)
	}
	switch r := in.Record; {
	case r.Recording:
		dst = append(dst, "   recording, checkpoints "...)
		dst = strconv.AppendUint(dst, r.Checkpoints, 10)
	case r.Replaying:
		dst = append(dst, "   replaying, checkpoints matched "...)
		dst = strconv.AppendUint(dst, r.Checkpoints, 10)
	}
	dst = append(dst, "\npacing lateness: median "...)
	if tel.WindowPacedFrames == 0 {
		dst = append(dst, "- (no frame cap: frames are not paced)"...)
	} else {
		dst = appendMS(dst, tel.WindowLatenessMedian)
		dst = append(dst, ", p99 "...)
		dst = appendMS(dst, tel.WindowLatenessP99)
		dst = append(dst, " over "...)
		dst = strconv.AppendInt(dst, int64(tel.WindowPacedFrames), 10)
		dst = append(dst, " paced frames"...)
	}
	dst = append(dst, "\npublication skipped: "...)
	dst = strconv.AppendUint(dst, in.Runtime.PublicationsSkipped, 10)
	dst = append(dst, " frames   presented "...)
	dst = strconv.AppendUint(dst, in.Runtime.FramesPresented, 10)
	dst = append(dst, "   cosmetic ran "...)
	dst = strconv.AppendUint(dst, in.CosmeticRuns, 10)
	dst = append(dst, ", skipped "...)
	dst = strconv.AppendUint(dst, in.CosmeticSkips, 10)
	dst = append(dst, '\n')
	if len(in.Input) == 0 {
		dst = append(dst, "input: none yet"...)
	} else {
		dst = append(dst, in.Input...)
	}
	dst = append(dst, '\n')
	dst = appendAudioLine(dst, &in.Audio)
	dst = append(dst, "\nload: slow update "...)
	dst = append(dst, onOff(in.SlowUpdate)...)
	dst = append(dst, ", slow render "...)
	dst = append(dst, onOff(in.SlowRender)...)
	dst = append(dst, ", stalls served "...)
	dst = strconv.AppendUint(dst, in.Stalls, 10)
	if in.Bunnies != in.Saved {
		dst = append(dst, "   unsaved: "...)
		dst = strconv.AppendInt(dst, int64(in.Bunnies), 10)
		dst = append(dst, " bunnies, saved "...)
		dst = strconv.AppendInt(dst, int64(in.Saved), 10)
		dst = append(dst, " ("...)
		dst = append(dst, in.SaveKey...)
		dst = append(dst, " saves; closing asks first)"...)
	}
	dst = append(dst, "\nkeys: "...)
	dst = append(dst, in.Keys...)
	return dst
}

// keysLine lists the keys of the demo's actions as the overlay shows them,
// each action by the first key it is bound to now: the one registered in
// registerActions, or a player's [input.bindings] override. It also
// returns the save action's key.
func (g *Game) keysLine() ([]byte, string) {
	a := g.actions
	key := func(act input.Action) string {
		if names := a.BindingNames(act, false); len(names) > 0 {
			return names[0]
		}
		return "(unbound)"
	}
	keys := func(sep string, acts ...input.Action) string {
		var b []byte
		for i, act := range acts {
			if i > 0 {
				b = append(b, sep...)
			}
			b = append(b, key(act)...)
		}
		return string(b)
	}
	c := &g.act
	var b []byte
	for i, item := range [...]struct{ keys, what string }{
		{keys("", c.up, c.left, c.down, c.right), "move"},
		{key(c.dash), "dash"},
		{key(c.fire), "fire"},
		{keys("/", c.add, c.remove), "bunnies"},
		{keys("/", c.load[0], c.load[1], c.load[2]), "stall"},
		{key(c.load[3]), "suspend"},
		{key(c.load[4]), "slow update"},
		{key(c.load[5]), "slow render"},
		{key(c.hide), "hide"},
		{key(c.fullscreen), "fullscreen"},
		{key(c.save), "save"},
	} {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(append(append(b, item.keys...), ' '), item.what...)
	}
	return b, key(c.save)
}

// mechNames holds the name of each single debt mechanism, so that naming
// a set allocates nothing.
var mechNames = func() (names [8]string) {
	for i := range names {
		names[i] = timing.Mechanism(1 << i).String()
	}
	return names
}()

// appendMechanisms names the mechanisms of m, joined with "+".
func appendMechanisms(dst []byte, m timing.Mechanism) []byte {
	if m == 0 {
		return append(dst, "none"...)
	}
	first := true
	for i, name := range mechNames {
		if m&(1<<i) != 0 {
			if !first {
				dst = append(dst, '+')
			}
			dst, first = append(dst, name...), false
		}
	}
	return dst
}

// ledgerImbalance returns how far the ledger is from balancing: zero when
// every nanosecond of real time is simulated, dropped, suspended or pending.
func ledgerImbalance(l timing.Ledger) time.Duration { return l.Imbalance() }

// debtScale returns the debt graph's full scale: the largest debt in the
// window, at least debtMinScale, rounded up to a whole 100 ms.
func debtScale(frames []timing.TelemetryFrame) time.Duration {
	s := debtMinScale
	for _, f := range frames {
		d := f.Debt
		if d < 0 {
			d = -d
		}
		s = max(s, d)
	}
	const unit = 100 * time.Millisecond
	return (s + unit - 1) / unit * unit
}

func appendDebtLabel(dst []byte, scale time.Duration) []byte {
	dst = append(dst, "debt after each frame (up: behind, down: ahead), full scale "...)
	return append(dst, durText(scale)...)
}

// barColor colours a frame's interval bar by its pacing lateness.
func barColor(f timing.TelemetryFrame) render2d.Color {
	switch {
	case !f.Paced():
		return unpaced
	case f.Lateness <= time.Millisecond:
		return onTime
	case f.Lateness <= 4*time.Millisecond:
		return slightly
	}
	return late
}

// barHeight maps d onto 0..height pixels for a graph whose full scale is
// scale; values beyond it are drawn at full height.
func barHeight(d, scale time.Duration, height float32) float32 {
	if d <= 0 || scale <= 0 {
		return 0
	}
	return min(float32(float64(d)/float64(scale))*height, height)
}

// Graph placement, from the bottom-left corner of the framebuffer.
func graphOrigin(fbh float32) (x, intervalBase, latenessBase, debtZero float32) {
	x = 14
	debtZero = fbh - 12 - debtHalf
	latenessBase = debtZero - debtHalf - 26
	intervalBase = latenessBase - latenessHeight - 6
	return
}

// layoutGraphs sizes every bar from the telemetry window, newest at the
// right.
func (ov *overlay) layoutGraphs(fbh float32) {
	x0, ib, lb, dz := graphOrigin(fbh)
	n := len(ov.frames)
	offset := timing.TelemetryWindow - n
	scale := debtScale(ov.frames)
	q := ov.bars.Query()
	for q.Next() {
		t, s, b := q.Get()
		x := x0 + float32(b.Index*barWidth)
		i := b.Index - offset
		var h, y float32
		c := onTime
		if i >= 0 && i < n {
			f := ov.frames[i]
			switch b.Graph {
			case graphInterval:
				h = barHeight(f.Interval, intervalScale, intervalHeight)
				y, c = ib-h, barColor(f)
			case graphLateness:
				h = barHeight(f.Lateness, latenessScale, latenessHeight)
				y, c = lb-h, late
			case graphDebt:
				if f.Debt >= 0 {
					h = barHeight(f.Debt, scale, debtHalf)
					y, c = dz-h, behind
				} else {
					h = barHeight(-f.Debt, scale, debtHalf)
					y, c = dz, ahead
				}
			}
		}
		t.Position = geom.Vec2{X: x, Y: y}
		t.Teleport()
		s.Size = geom.Vec2{X: barWidth - 1, Y: h}
		s.Tint = c
		s.Hidden = h == 0
	}
}

// layoutTexts places the text blocks and backdrops for a framebuffer of
// fbw x fbh pixels and copies the latest text into them.
func (ov *overlay) layoutTexts(fbw, fbh float32) {
	lh := ov.lineH
	x0, ib, lb, dz := graphOrigin(fbh)
	statsLines := float32(countLines(ov.buf[textStats]))
	panelLines := float32(countLines(ov.buf[textPanel]))
	ov.panelW = 330
	ov.panelX, ov.panelY = fbw-ov.panelW-8, 8
	q := ov.texts.Query()
	for q.Next() {
		t, text, role := q.Get()
		text.Content = string(ov.buf[role.Role])
		switch role.Role {
		case textStats:
			t.Position = geom.Vec2{X: 14, Y: 12}
		case textPanel:
			t.Position = geom.Vec2{X: ov.panelX + 8, Y: ov.panelY + 6}
		case textIntervals:
			t.Position = geom.Vec2{X: x0, Y: ib - intervalHeight - lh - 2}
		case textDebt:
			t.Position = geom.Vec2{X: x0, Y: lb + 2}
		}
		t.Teleport()
	}
	sq := ov.statics.Query()
	for sq.Next() {
		t, s, st := sq.Get()
		switch st.Role {
		case staticStatsBack:
			t.Position, s.Size = geom.Vec2{X: 6, Y: 6}, geom.Vec2{X: 760, Y: statsLines*lh + 14}
		case staticPanelBack:
			t.Position, s.Size = geom.Vec2{X: ov.panelX, Y: ov.panelY}, geom.Vec2{X: ov.panelW, Y: panelLines*lh + 14}
		case staticGraphBack:
			top := ib - intervalHeight - lh - 8
			t.Position, s.Size = geom.Vec2{X: 6, Y: top}, geom.Vec2{X: 560, Y: dz + debtHalf + 6 - top}
		case staticFrameLine:
			t.Position = geom.Vec2{X: x0, Y: ib - barHeight(16_666_667, intervalScale, intervalHeight)}
			s.Size = geom.Vec2{X: graphWidth, Y: 1}
		case staticFrameLine2:
			t.Position = geom.Vec2{X: x0, Y: ib - barHeight(33_333_333, intervalScale, intervalHeight)}
			s.Size = geom.Vec2{X: graphWidth, Y: 1}
		case staticDebtZero:
			t.Position, s.Size = geom.Vec2{X: x0, Y: dz}, geom.Vec2{X: graphWidth, Y: 1}
		case staticProbeHub:
			t.Position, s.Size = geom.Vec2{X: ov.probeX - 1, Y: ov.probeY - 1}, geom.Vec2{X: 2, Y: 2}
		}
		t.Teleport()
	}
}

// probeCentre is where the motion probe circles: right of the statistics
// block, left of the panel.
func probeCentre() (x, y float32) { return 6 + 760 + 16 + probeRadius, 12 + probeRadius + 4 }

// setHidden hides or shows every overlay entity.
func (ov *overlay) setHidden(hidden bool) {
	q := ov.texts.Query()
	for q.Next() {
		_, text, _ := q.Get()
		text.Hidden = hidden
	}
	sq := ov.statics.Query()
	for sq.Next() {
		_, s, _ := sq.Get()
		s.Hidden = hidden
	}
	bq := ov.bars.Query()
	for bq.Next() {
		_, s, _ := bq.Get()
		s.Hidden = hidden
	}
	pq := ov.probes.Query()
	for pq.Next() {
		_, s, _ := pq.Get()
		s.Hidden = hidden
	}
	ov.dirty = true
}

// click handles a mouse click at (x, y): on a panel row it selects the row
// and changes it by dir, and reports true; elsewhere it reports false.
func (ov *overlay) click(x, y float32, dir int) bool {
	p := ov.g.panel
	if ov.g.hidden || p == nil || x < ov.panelX || x > ov.panelX+ov.panelW {
		return false
	}
	row := int((y-ov.panelY-6)/ov.lineH) - 1 // the title is line 0
	if y < ov.panelY || row < 0 || row >= p.Rows() {
		return false
	}
	p.Select(row)
	p.Change(dir)
	ov.dirty = true
	return true
}

func countLines(b []byte) int {
	n := 1
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
