// Package templates holds the files cmd/newgame renders into a new game
// project, embedded so the command works from any directory.
//
// A project is the files of common/ (go.mod, .gitignore) and those of
// one game tree: game/ for a single player ([Root]), netgame/ for
// several players who play at one keyboard or over the network, with
// rollback ([NetRoot]). Every file is a text/template, except recordings (".rec"),
// which are copied with the new module's path in their header. A name
// ending in ".tmpl" loses that suffix when written; "gitignore.tmpl"
// becomes ".gitignore" (embed leaves dot files out of a plain pattern).
// Templates see a [Data] value.
package templates

import "embed"

// FS holds the template trees.
//
//go:embed all:common all:game all:netgame
var FS embed.FS

// The trees inside [FS]: Common is rendered into every project, then
// Root (one player) or NetRoot (Players of 2 or more).
const (
	Common  = "common"
	Root    = "game"
	NetRoot = "netgame"
)

// MaxPlayers is the most players the networked template seats at one
// keyboard, and the most peers a match holds.
const MaxPlayers = 4

// Seat is one player's keys in the networked template: input.Button
// constant names (KeyA) for the code, and names for people (W A S D)
// for the README.
type Seat struct {
	// Number counts from 1; Index from 0.
	Number, Index               int
	Left, Right, Up, Down, Dash string
	Move, DashKey               string
}

// Seats returns the first n seats' keys: player 1 on W/A/S/D and Space,
// player 2 on the arrows and Enter, player 3 on I/J/K/L and U, player 4
// on the keypad's 8/4/5/6 and 0.
func Seats(n int) []Seat {
	all := []Seat{
		{Left: "KeyA", Right: "KeyD", Up: "KeyW", Down: "KeyS", Dash: "KeySpace", Move: "W A S D", DashKey: "Space"},
		{Left: "KeyLeft", Right: "KeyRight", Up: "KeyUp", Down: "KeyDown", Dash: "KeyEnter", Move: "arrow keys", DashKey: "Enter"},
		{Left: "KeyJ", Right: "KeyL", Up: "KeyI", Down: "KeyK", Dash: "KeyU", Move: "I J K L", DashKey: "U"},
		{Left: "KeyKP4", Right: "KeyKP6", Up: "KeyKP8", Down: "KeyKP5", Dash: "KeyKP0", Move: "keypad 8 4 5 6", DashKey: "keypad 0"},
	}
	n = min(max(n, 0), len(all))
	seats := all[:n:n]
	for i := range seats {
		seats[i].Number, seats[i].Index = i+1, i
	}
	return seats
}

// Data is what every template sees.
type Data struct {
	// Module is the new project's module path, such as "example.com/mygame".
	Module string
	// Name is a lower-case identifier for the game, such as "mygame".
	Name string
	// Title is the human-readable name shown in the window title and README.
	Title string
	// Framework is the framework's module path.
	Framework string
	// FrameworkVersion is the required version: a release tag, or
	// v0.0.0-00010101000000-000000000000 when Replace points at a checkout.
	FrameworkVersion string
	// Replace is the checkout the project builds against ("" when a
	// published version is used).
	Replace string
	// GoVersion is the go directive of the new module.
	GoVersion string
	// FixtureTicks and FixtureHash describe the recording the project's
	// test replays (testdata/session.rec): how many ticks it holds and the
	// world hash after the last one.
	FixtureTicks uint64
	FixtureHash  uint64
	// Players is the number of players: 1 renders [Root], 2 to
	// [MaxPlayers] render [NetRoot] with Seats(Players) in Seats.
	Players int
	Seats   []Seat
}

// FixturePath is the recording the generated test replays, inside [FS].
const FixturePath = "game/testdata/session.rec"
