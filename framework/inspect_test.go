package framework_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework"
)

// --inspect's rules are told before anything runs: a recording's
// inspector replays it headless and whole. (A match as it plays is
// followed: examples/duel's TestInspectorFollowsALiveMatch.)
func TestInspectFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--inspect", ":7777", "--compare", "b.rec"}, "--compare goes with --replay FILE"},
		{[]string{"--inspect-remote"}, "--inspect-remote goes with --inspect ADDR"},
		{[]string{"--replay", "x.rec", "--inspect", ":7777", "--window"}, "leave out --window"},
		{[]string{"--replay", "x.rec", "--inspect", ":7777", "--replay-until", "3"}, "leave out --window and --replay-until"},
	} {
		var stdout, stderr bytes.Buffer
		if got := framework.MainStatus(countingGame(1), c.args, &stdout, &stderr); got != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: status %d, %q; want 2 and %q", c.args, got, stderr.String(), c.want)
		}
	}
	var stdout, stderr bytes.Buffer
	if got := framework.MainStatus(countingGame(1), []string{"--replay", "missing.rec", "--inspect", ":0"}, &stdout, &stderr); got == 0 || !strings.Contains(stderr.String(), "missing.rec") {
		t.Errorf("a missing recording: status %d, %q", got, stderr.String())
	}
	// --compare B goes to the page now: the inspector starts (and fails on
	// the missing recording) instead of the command line's comparison.
	stdout.Reset()
	stderr.Reset()
	if got := framework.MainStatus(countingGame(1), []string{"--replay", "missing.rec", "--compare", "other.rec", "--inspect", ":0"}, &stdout, &stderr); got == 0 || got == 2 || !strings.Contains(stderr.String(), "missing.rec") {
		t.Errorf("--inspect with --compare: status %d, %q", got, stderr.String())
	}
}
