package framework_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/rollback"
)

// The lobby flags refuse what cannot go together, each naming the flags
// and what is allowed, before anything runs. The keys they set
// (net.lobby, net.room, net.create, net.quick and net.players) are
// checked where the configuration's are (rollback.MatchOptions), and
// their message names the key.
func TestLobbyFlags(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"--lobby", "ws://127.0.0.1:1", "--create", "--host", ":7777"}, 2, "not with --host, --join or --spectate"},
		{[]string{"--lobby", "ws://127.0.0.1:1", "--room", "KXR-4TQ", "--join", "127.0.0.1:7777", "--token", "x"}, 2, "not with --host, --join or --spectate"},
		{[]string{"--lobby", "ws://127.0.0.1:1", "--create", "--synctest", "2"}, 2, "--lobby plays a match: not with --replay or --synctest"},
		{[]string{"--lobby", "ws://127.0.0.1:1", "--room", "KXR-4TQ", "--create"}, 1, "net.create = true: given with net.room: give one way to meet; allowed: one of net.room, net.create and net.quick"},
		{[]string{"--lobby", "ws://127.0.0.1:1", "--quick", "2", "--create"}, 1, "net.quick = true: given with net.create: give one way to meet"},
		{[]string{"--lobby", "ws://127.0.0.1:1", "--quick", "1"}, 1, "net.players = 1: out of range; allowed: 2 to 16 players"},
		{[]string{"--lobby", "ws://127.0.0.1:1", "--quick", "17"}, 1, "net.players = 17: out of range; allowed: 2 to 16 players"},
		{[]string{"--lobby", "http://127.0.0.1:1", "--create"}, 1, "net.lobby = http://127.0.0.1:1: not a lobby's URL; allowed: the lobby's ws://HOST:PORT or wss://HOST:PORT"},
	} {
		var out, errs strings.Builder
		if st := framework.MainStatus(netGame(), c.args, &out, &errs); st != c.status || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%q: status %d, stderr %q; want %d and %q", c.args, st, errs.String(), c.status, c.want)
		}
	}
}

// A game that lists no lobby path refuses --lobby, naming what to add,
// and a lobby with no way to meet, or a quick match of another number of
// players than the game's, is refused before the lobby is dialled.
func TestLobbyNeedsTheGamesLobbyPath(t *testing.T) {
	common := []string{"--set", "timing.mode=fixed", "--set", "audio.enabled=false"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--lobby", "ws://127.0.0.1:1", "--create"}, "this game links no lobby path; list one in Game.Net.Lobby, such as lobbynet.NewNetplay"},
		{[]string{"--set", "net.lobby=ws://127.0.0.1:1", "--set", "net.room=KXR-4TQ"}, "this game links no lobby path"},
	} {
		var out, errs strings.Builder
		if st := framework.MainStatus(netGame(), append(common, c.args...), &out, &errs); st != 1 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%q: status %d, stderr %q; want 1 and %q", c.args, st, errs.String(), c.want)
		}
	}
	g := netGame()
	g.Net.Lobby = neverMeets{t}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--lobby", "ws://127.0.0.1:1"}, "give one way to meet: --room CODE, --create or --quick N"},
		{[]string{"--lobby", "ws://127.0.0.1:1", "--quick", "3"}, "a match of 3 players (net.players, or --quick N); this game has 2"},
		{[]string{"--lobby", "ws://127.0.0.1:1", "--dedicated", "--quick", "3"}, "quick matches of 3 players (net.players, or --quick N); this game has 2"},
		{[]string{"--lobby", "ws://127.0.0.1:1", "--create", "--dedicated"}, "--dedicated --lobby ws://127.0.0.1:1 waits for full quick matches: not with a room to enter or make (net.room, net.create)"},
		{[]string{"--room", "KXR-4TQ"}, "--room, --create and --quick (net.room, net.create, net.quick) meet through a lobby: give its URL with --lobby"},
	} {
		var out, errs strings.Builder
		st := framework.MainStatus(g, append(common, c.args...), &out, &errs)
		if st != 1 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%q: status %d, stderr %q; want 1 and %q", c.args, st, errs.String(), c.want)
		}
	}
}

// neverMeets is a lobby path the test expects not to be used.
type neverMeets struct{ t *testing.T }

func (n neverMeets) Meet(context.Context, rollback.Meeting, func(string)) (rollback.Connected, error) {
	n.t.Error("the lobby was dialled for a session that should have been refused first")
	return rollback.Connected{}, errors.New("not meeting")
}

// A game that lists no lobby path links no lobby client: framework does
// not import one, and Breakout, which plays no match, links none,
// natively or in the browser.
func TestAGameLinksNoLobbyItDoesNotList(t *testing.T) {
	if testing.Short() {
		t.Skip("lists packages with go list")
	}
	const module = "github.com/metronome-go/metronome"
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		for _, pkg := range []string{module + "/framework", module + "/examples/breakout"} {
			cmd := exec.Command("go", "list", "-deps", pkg)
			cmd.Env = append(os.Environ(), env...)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list -deps %s %v: %v", pkg, env, err)
			}
			for p := range strings.FieldsSeq(string(out)) {
				if p == module+"/lobby" || p == module+"/rollback/netplay/lobbynet" || strings.HasPrefix(p, "github.com/coder/websocket") {
					t.Errorf("%s %v links %s", pkg, env, p)
				}
			}
		}
	}
}
