// Command duel is a two-player game made for rollback netcode: two ships
// in an arena shoot at each other until the round's clock runs out; a hit
// scores a point, and the round goes to the ship with more.
//
//	go run ./examples/duel                     # two players at one keyboard
//	go run ./examples/duel --synctest 2        # the same, checked by a sync-test
//	go test ./examples/duel                    # two peers over a simulated network
//
// Player 1 flies with W/A/S/D and fires with Space; player 2 with the arrow
// keys and Enter. Each player's keys are one seat of framework.Net: the game's
// systems read both players through the rollback.Players resource, so the
// same code plays two players at one keyboard and a networked match.
//
// The code is split by concern: main.go the Game, its seats and settings;
// game.go the setup (actions, seats, resources, systems); ships.go movement,
// shots and hits in rounded float32 arithmetic (geom.Vec2), so every machine
// computes the same world; round.go the score and the round clock; hud.go
// the text; sounds.go generated sound effects.
package main

import (
	_ "embed"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/rollback/netplay/lobbynet"
	"github.com/metronome-go/metronome/rollback/netplay/quicnet"
	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

// configTOML is the game's own configuration: 60 Hz fixed ticks, the
// arena's size and the [game] settings.
//
//go:embed config.toml
var configTOML []byte

// Settings are the [game] table of config.toml.
type Settings struct {
	// ShipSpeed is how fast a ship flies, in logical pixels per second.
	ShipSpeed float64 `toml:"ship_speed" range:"50,1000"`
	// ShotSpeed is how fast a shot flies.
	ShotSpeed float64 `toml:"shot_speed" range:"100,3000"`
	// Reload is the time between two shots of one ship.
	Reload time.Duration `toml:"reload" range:"50ms,5s"`
	// Round is how long a round lasts.
	Round time.Duration `toml:"round" range:"5s,10m"`
}

// defaultSettings are the [game] table's defaults; config.toml repeats
// them for a player to read.
func defaultSettings() Settings {
	return Settings{ShipSpeed: 260, ShotSpeed: 620, Reload: 350 * time.Millisecond, Round: 60 * time.Second}
}

// newGame describes the duel to the framework: two players, whose seats
// Setup fills once it has registered the actions, over UDP or, with
// net.transport = "quic", encrypted QUIC (listing QUIC links quic-go and
// TLS into the duel; a game that lists no network plays over UDP), or
// with net.transport = "webrtc" over WebRTC data channels, which a
// player in a web page can join; listing a lobby path lets its players
// meet by a room code or quick match (--lobby URL --create, --room CODE,
// --quick 2) through a lobby (cmd/lobby), a page as well as a desktop.
func newGame() framework.Game {
	settings := defaultSettings()
	net := &framework.Net{Players: 2, Networks: []rollback.Network{netplay.UDPNetwork(), quicnet.Network(), webrtc.Network(webrtc.Config{})},
		Lobby: lobbynet.NewNetplay(webrtc.Config{})}
	return framework.Game{
		Title:    "Duel",
		Seed:     26,
		Config:   configTOML,
		Settings: &settings,
		Source:   source,
		Net:      net,
		Setup:    func(s *framework.Setup) error { return setup(s, &settings, net) },
	}
}

func main() {
	framework.Main(newGame())
}
