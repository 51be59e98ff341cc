package demo_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
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
				Ledger   demo.LedgerReport   `json:"ledger"`
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
