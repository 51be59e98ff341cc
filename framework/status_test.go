package framework_test

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework"
)

// TestHelpListsExitStatuses: --help ends with every exit status a script
// can see, each with what it means.
func TestHelpListsExitStatuses(t *testing.T) {
	var stderr bytes.Buffer
	if got := framework.MainStatus(framework.Game{}, []string{"--help"}, io.Discard, &stderr); got != framework.StatusOK {
		t.Fatalf("--help: status %d", got)
	}
	help := stderr.String()
	_, statuses, ok := strings.Cut(help, "Exit statuses:\n")
	if !ok {
		t.Fatalf("--help does not list the exit statuses:\n%s", help)
	}
	for _, s := range []struct {
		n    int
		what string
	}{
		{framework.StatusOK, "a clean stop"},
		{framework.StatusFailed, "failure"},
		{framework.StatusUsage, "bad flags"},
		{framework.StatusReplayCut, "without an end marker"},
		{framework.StatusReplayDamaged, "damaged"},
		{framework.StatusReplayDiverged, "world hash differs"},
		{framework.StatusDesynced, "hashes differ"},
		{framework.StatusAbandoned, "stopped answering"},
		{framework.StatusRefused, "refused"},
		{framework.StatusHostGone, "host left"},
	} {
		found := false
		for _, line := range strings.Split(statuses, "\n") {
			f := strings.Fields(line)
			if len(f) > 1 && f[0] == strconv.Itoa(s.n) && strings.Contains(line, s.what) {
				found = true
			}
		}
		if !found {
			t.Errorf("--help lists no status %d (%s):\n%s", s.n, s.what, statuses)
		}
	}
}

// TestLongArgumentsAreCut (issue 47 item 4): a long value on the command
// line is repeated cut, whether the configuration, the flag package or
// the argument check refuses it.
func TestLongArgumentsAreCut(t *testing.T) {
	type settings struct {
		Lives int `toml:"lives" range:"1,9"`
	}
	digits := strings.Repeat("9", 100_000)
	g := framework.Game{Title: "lives", Settings: &settings{Lives: 3}}
	for _, args := range [][]string{
		{"--set", "game.lives=" + digits},
		{"--ticks=" + digits},
		{"--ticks", digits},
		{digits},
	} {
		var stderr bytes.Buffer
		framework.MainStatus(g, args, io.Discard, &stderr)
		msg := stderr.String()
		if strings.Contains(msg, digits[:1000]) || !strings.Contains(msg, `"999999999999999999999999…" (100,000 bytes)`) {
			t.Errorf("%.20q: %d bytes on stderr, want the value cut: %.300q", args, len(msg), msg)
		}
	}
}
