package frameworktest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
)

func TestMatchRefuses(t *testing.T) {
	solo := func() framework.Game { return framework.Game{} }
	if _, err := frameworktest.Match(solo, frameworktest.MatchOptions{For: time.Second}); err == nil || !strings.Contains(err.Error(), "Game.Net") {
		t.Errorf("Match of a game without Net = %v, want an error naming Game.Net", err)
	}
	duo := func() framework.Game { return framework.Game{Net: &framework.Net{Players: 2}} }
	if _, err := frameworktest.Match(duo, frameworktest.MatchOptions{}); err == nil || !strings.Contains(err.Error(), "For") {
		t.Errorf("Match without For = %v, want an error naming For", err)
	}
	if _, err := frameworktest.Match(duo, frameworktest.MatchOptions{For: time.Second, Options: frameworktest.Options{SyncTest: 2}}); err == nil {
		t.Error("Match with a sync-test accepted")
	}
}
