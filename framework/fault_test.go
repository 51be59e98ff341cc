package framework_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/runtime"
)

// faultChildEnv makes the test binary run faultGame instead of the tests.
const faultChildEnv = "METRONOME_FAULT_CHILD"

// faultGame is the game the fault tests run in a process of its own: it
// prints the pid of its private X server once (at its first tick), then a line per tick with
// the tick's number and recorded end, so the test knows how far the game
// got when it was killed.
func faultGame() framework.Game {
	g := spriteGame()
	setup := g.Setup
	g.Title = "fault"
	g.Setup = func(s *framework.Setup) error {
		if err := setup(s); err != nil {
			return err
		}
		if os.Getenv(faultChildEnv) == "" {
			return nil // the test's own replay
		}
		// Setup runs before the window and its X server: the server is
		// there from the first tick.
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "xvfb", Run: func(*ecs.Sys) {
			fmt.Printf("xvfb %d\n", childNamed("Xvfb"))
		}})
		s.App.AddSystem(ecs.Update, ecs.System{Name: "report", Run: func(ctx *ecs.Sys) {
			fmt.Printf("tick %d %d\n", ctx.Time.Number, ctx.Time.End)
		}})
		if os.Getenv(faultChildEnv) == "defer" {
			// A "save first?" game: every request waits for an answer
			// that never comes.
			return s.Runtime.Shutdown().SetPolicy(func(req runtime.ShutdownRequest) runtime.ShutdownDecision {
				fmt.Printf("deferred %s\n", req.Reason)
				return runtime.ShutdownDefer
			})
		}
		return nil
	}
	return g
}

// childNamed returns the pid of a child process of this one with the
// command name, or 0.
func childNamed(name string) int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(s[end+1:])
		if s[open+1:end] != name || len(f) < 2 || f[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(s[:open]))
		return pid
	}
	return 0
}
