//go:build metronome_inspect

package framework

import (
	"fmt"
	"io"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/inspect"
)

// inspectPage is the address --inspect takes in the inspector's page:
// the page asks the module itself, through a JavaScript function, as a
// page cannot listen.
const inspectPage = "page"

// inspectMain runs --replay FILE --inspect page in the inspector's page
// (inspect/page, as cmd/webgame serves it under /rewind/): it replays the
// recording the page wrote into the module's files and answers the
// page's requests through globalThis.metronomeInspect
// ([inspect.ServeInPage]) until the tab closes.
func inspectMain(g Game, f *Flags, stdout, stderr io.Writer) int {
	if f.Inspect != inspectPage {
		fmt.Fprintf(stderr, "%s: --inspect %q: in the inspector's page the inspector answers in the page itself (allowed: --inspect %s)\n", programName(), f.Inspect, inspectPage)
		return 2
	}
	rep, err := InspectReplay(g, f.Replay, inspect.Options{})
	if err != nil {
		printFailure(stderr, err)
		return ReplayStatus(err)
	}
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{Name: f.Replay, Analysis: InspectAnalysis(g, f.Replay, f.Compare)})
	if err == nil {
		_, err = inspect.ServeInPage("metronomeInspect", h)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", programName(), err)
		return StatusFailed
	}
	m := rep.Memory()
	fmt.Fprintf(stdout, "%s: inspecting %s: %d ticks, %d keyframes (%d KiB)\n",
		programName(), f.Replay, rep.Ticks(), m.Keyframes, m.KeyframeBytes/1024)
	select {} // the page's requests run on callbacks until the tab closes
}

// inspectLiveMain refuses: the inspector's page opens a recording, and a
// game's own page hands it one (Open in Rewind) once it has recorded.
func inspectLiveMain(_ Game, _ config.Config, opts RunOptions, _ *Flags) int {
	fmt.Fprintf(opts.Stderr, "%s: --inspect without --replay follows a game as it plays, which a page cannot: record the game (--record FILE) and open the recording in Rewind\n", programName())
	return 2
}
