//go:build !js

package main

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/runtime"
)

// TestTimingReportInBrowser runs the demo in the page with a timing
// report and reads the report's platform section: headless chromium draws
// WebGL2 with SwiftShader, for which the renderer takes its batched path,
// and the page (served cross-origin isolated) measured a clock step finer
// than the 100 µs of a page that is not.
func TestTimingReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo for the browser")
	}
	ctx := browser(t)
	s, err := demoSite()
	if err != nil {
		t.Fatal(err)
	}
	start(t, ctx, s, "?arg=--timing-report=report.json&arg=--ticks=120&arg=--set=audio.enabled=false", 1)
	waitFor(t, ctx, `exitCode !== null`, "the demo to stop after 120 ticks")
	if code := eval[int](t, ctx, `exitCode`); code != 0 {
		t.Fatalf("the demo exited with %d: %s", code, eval[string](t, ctx, `stderr`))
	}
	data, err := base64.StdEncoding.DecodeString(eval[string](t, ctx, `metronomePage.file("report.json") ?? ""`))
	if err != nil || len(data) == 0 {
		t.Fatalf("metronomePage.file(\"report.json\"): %d bytes, %v", len(data), err)
	}
	var r struct {
		Version  int                    `json:"version"`
		Platform runtime.PlatformReport `json:"platform"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("decoding the report: %v\n%s", err, data)
	}
	if r.Version != runtime.ReportVersion {
		t.Errorf("version %d, want %d", r.Version, runtime.ReportVersion)
	}
	p := r.Platform
	if !strings.Contains(p.Device, "SwiftShader") || p.DrawPath != "batched" {
		t.Errorf("platform: device %q, draw path %q; want SwiftShader on the batched path", p.Device, p.DrawPath)
	}
	if p.ClockResolution <= 0 || p.ClockResolution >= 100*time.Microsecond {
		t.Errorf("platform: clock resolution %v, want above 0 and below the 100 µs of a page that is not isolated", p.ClockResolution)
	}
	t.Logf("platform section: %+v", p)
}
