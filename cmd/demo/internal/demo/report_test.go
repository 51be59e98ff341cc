package demo_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

func syntheticReport(frames int, ledger timing.Ledger) demo.Report {
	var r runtime.Report
	r.Timing.Ledger = ledger
	for i := range frames {
		r.Frames = append(r.Frames, timing.TelemetryFrame{
			Interval: time.Duration(15+i%5) * time.Millisecond,
			Lateness: time.Duration(i%7) * time.Millisecond,
			Outcome:  timing.PaceWaited,
			Ticks:    1,
			Debt:     time.Duration(i-frames/2) * time.Millisecond,
		})
	}
	o := runtime.DefaultOptions()
	o.Timing.Mode = timing.FixedMode
	return demo.MakeReport(r, o)
}

func TestReportLedger(t *testing.T) {
	balanced := timing.Ledger{Real: 10 * time.Second, Simulated: 9 * time.Second, DroppedExcessLag: 600 * time.Millisecond,
		Suspended: 300 * time.Millisecond, PendingRemainder: 100 * time.Millisecond}
	off := balanced
	off.Simulated -= 5
	tests := []struct {
		name          string
		ledger        timing.Ledger
		wantBalanced  bool
		wantImbalance int64
	}{
		{"balanced", balanced, true, 0},
		{"five nanoseconds missing", off, false, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := syntheticReport(10, tt.ledger)
			if r.Ledger.Balanced != tt.wantBalanced || r.Ledger.ImbalanceNS != tt.wantImbalance {
				t.Errorf("got balanced %v, imbalance %d; want %v, %d", r.Ledger.Balanced, r.Ledger.ImbalanceNS, tt.wantBalanced, tt.wantImbalance)
			}
			var buf bytes.Buffer
			if err := r.WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
			var back struct {
				Ledger   demo.LedgerReport   `json:"ledger_check"`
				Settings demo.ReportSettings `json:"settings"`
				Frames   []json.RawMessage   `json:"frames"`
			}
			if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
				t.Fatalf("invalid JSON: %v", err)
			}
			if back.Ledger != r.Ledger || back.Settings.TimingMode != "fixed" || len(back.Frames) != 10 {
				t.Errorf("round trip: got %+v, %+v, %d frames; want %+v, fixed, 10", back.Ledger, back.Settings, len(back.Frames), r.Ledger)
			}
		})
	}
}

func TestReportSVG(t *testing.T) {
	for _, n := range []int{0, 7, timing.TelemetryWindow} {
		r := syntheticReport(n, timing.Ledger{Real: time.Second, Simulated: time.Second})
		var buf bytes.Buffer
		if err := r.WriteSVG(&buf); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(&buf)
		rects, titles := 0, 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%d frames: invalid SVG: %v", n, err)
			}
			if s, ok := tok.(xml.StartElement); ok {
				switch s.Name.Local {
				case "rect":
					rects++
				case "title":
					titles++
				}
			}
		}
		// One interval bar per frame (each with a tooltip), a lateness bar
		// for late frames, a debt bar for frames with debt, the background.
		if titles != n {
			t.Errorf("%d frames: got %d bar tooltips, want %d", n, titles, n)
		}
		if rects < 1+n {
			t.Errorf("%d frames: got %d rects, want at least %d", n, rects, 1+n)
		}
	}
	r := syntheticReport(3, timing.Ledger{})
	r.Settings.Recovery = `<script>&"`
	var buf bytes.Buffer
	if err := r.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<script>") {
		t.Error("settings text is not escaped in the SVG")
	}
}

// TestReportKeys walks every key of a real report: one naming convention
// (snake case, durations in nanoseconds ending in _ns), each figure once,
// and a version. The report used to write the scheduler's statistics and
// the input queue's under their Go names (timing.NextUpdateAt,
// input.PeakPendingRecords) and the ledger twice (ledger and
// timing.Ledger).
func TestReportKeys(t *testing.T) {
	g, sim := newSim(t, demo.Options{Sprites: 50, Seed: 3})
	if err := sim.RunTicks(60); err != nil {
		t.Fatal(err)
	}
	r := g.Report()
	if r.Load == nil {
		r.Load = &demo.LoadReport{} // the load section's keys too
	}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc["version"]; got != float64(runtime.ReportVersion) {
		t.Errorf("version: got %v, want %d", got, runtime.ReportVersion)
	}
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	// leaves maps each figure's key to where it appears. The load section
	// repeats one set of figures for the load and after it, and frames is
	// a series; neither is a second copy of a figure elsewhere.
	leaves := map[string][]string{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				p := strings.TrimPrefix(path+"."+k, ".")
				if !snake.MatchString(k) {
					t.Errorf("key %s: %q is not snake case", p, k)
				}
				walk(p, e)
			}
		case []any:
			for _, e := range v {
				walk(path+"[]", e)
			}
		default:
			if !strings.HasPrefix(path, "load.") && !strings.HasPrefix(path, "frames[]") {
				name := path[strings.LastIndexByte(path, '.')+1:]
				if !slices.Contains(leaves[name], path) {
					leaves[name] = append(leaves[name], path)
				}
			}
		}
	}
	walk("", doc)
	for name, paths := range leaves {
		// Counts of different things may share a word; a quantity with a
		// unit is one figure and appears once.
		if len(paths) > 1 && (strings.HasSuffix(name, "_ns") || name == "rate" || name == "balanced") {
			t.Errorf("%s appears %d times: %v", name, len(paths), paths)
		}
	}
	checkDurationKeys(t, reflect.TypeOf(r), "")
}

// checkDurationKeys checks that every duration or instant JSON writes has
// a key ending in _ns.
func checkDurationKeys(t *testing.T, typ reflect.Type, path string) {
	t.Helper()
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || typ.Implements(reflect.TypeFor[json.Marshaler]()) {
		return
	}
	for f := range typ.Fields() {
		if !f.IsExported() {
			continue
		}
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if key == "-" {
			continue
		}
		if f.Anonymous && key == "" {
			checkDurationKeys(t, f.Type, path)
			continue
		}
		if key == "" {
			key = f.Name
		}
		p := strings.TrimPrefix(path+"."+key, ".")
		ft := f.Type
		for ft.Kind() == reflect.Array || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if (ft == reflect.TypeFor[time.Duration]() || ft == reflect.TypeFor[timing.Instant]()) && !strings.HasSuffix(key, "_ns") {
			t.Errorf("%s is a %v in nanoseconds; its key should end in _ns", p, ft)
		}
		checkDurationKeys(t, f.Type, p)
	}
}
