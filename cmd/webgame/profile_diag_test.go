//go:build !js

package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// profiling reports whether METRONOME_PAGE_PROFILE asks the browser
// tests to take the player page's CPU profile (a diagnosis, not a
// check): METRONOME_PAGE_PROFILE=1 go test ./cmd/webgame -run
// APagePlaysADesktopMatch -v logs where the page's main thread spent its
// time up to its first present and up to 300 presents. The build strips
// the module's names (-ldflags=-s -w), so Go functions show as
// wasm-function[N]: build without it to see them, and their inclusive
// times (the runtime's loop, the peer's update, the renderer).
func profiling() bool { return os.Getenv("METRONOME_PAGE_PROFILE") != "" }

// startProfile starts the page's CPU profiler, sampling every 200 µs.
func startProfile(t testing.TB, ctx context.Context) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, profiler.Enable, cdp.Empty{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, profiler.Start, cdp.Empty{})
		return err
	}))
	if err != nil {
		t.Fatalf("starting the profiler: %v", err)
	}
}

// stopProfile stops the page's CPU profiler and logs where the time went:
// the share of each function's self time (the top 40), and of the
// inclusive time of the program's own functions (the top 60).
func stopProfile(t testing.TB, ctx context.Context, label string) {
	t.Helper()
	var prof *profiler.Profile
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		r, err := cdp.Call(ctx, tg, profiler.Stop, cdp.Empty{})
		prof = r.Profile
		return err
	}))
	if err != nil || prof == nil {
		t.Fatalf("stopping the profiler: %v", err)
	}
	name := map[int64]string{}
	for _, n := range prof.Nodes {
		name[n.ID] = n.CallFrame.FunctionName
		if name[n.ID] == "" {
			name[n.ID] = "(anonymous " + n.CallFrame.URL + ")"
		}
	}
	parent := map[int64]int64{}
	for _, n := range prof.Nodes {
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	self, incl := map[string]int64{}, map[string]int64{}
	var total int64
	for i, id := range prof.Samples {
		if i+1 < len(prof.TimeDeltas) {
			d := prof.TimeDeltas[i+1]
			self[name[id]] += d
			total += d
			seen := map[string]bool{}
			for n := id; n != 0; n = parent[n] {
				if f := name[n]; !seen[f] {
					seen[f] = true
					incl[f] += d
				}
			}
		}
	}
	type row struct {
		f  string
		us int64
	}
	var rows []row
	for f, us := range self {
		rows = append(rows, row{f, us})
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(b.us, a.us) })
	var b strings.Builder
	fmt.Fprintf(&b, "profile %s: %.1f s\n", label, float64(total)/1e6)
	for i, r := range rows {
		if i == 40 {
			break
		}
		fmt.Fprintf(&b, "  %5.1f%% %7.0f ms %s\n", 100*float64(r.us)/float64(total), float64(r.us)/1e3, r.f)
	}
	rows = rows[:0]
	for f, us := range incl {
		if strings.Contains(f, "metronome") || strings.Contains(f, "arche") || strings.HasPrefix(f, "runtime.") || strings.HasPrefix(f, "main.") {
			rows = append(rows, row{f, us})
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(b.us, a.us) })
	fmt.Fprintf(&b, "inclusive:\n")
	for i, r := range rows {
		if i == 60 {
			break
		}
		fmt.Fprintf(&b, "  %5.1f%% %7.0f ms %s\n", 100*float64(r.us)/float64(total), float64(r.us)/1e3, r.f)
	}
	t.Log(b.String())
}
