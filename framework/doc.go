// Package framework starts a Metronome game with one call: configuration,
// window, renderer, input, the ECS app and the runtime.
//
// # A game
//
// A [Game] is a title, a seed and a Setup function that registers input
// actions, loads assets and adds ECS systems. [Main] runs it with the
// standard command line and exits with a status ([StatusOK] and the rest
// in status.go; a replay's tells a killed session's whole recording
// ([StatusReplayCut]) from a damaged one and from a divergence, see
// [ReplayStatus]):
//
//	func main() {
//		framework.Main(framework.Game{
//			Title: "Asteroids",
//			Setup: func(s *framework.Setup) error {
//				s.App.AddSystem(ecs.Update, ecs.System{Name: "move", Run: move})
//				return nil
//			},
//		})
//	}
//
// # Configuration
//
// The configuration is built in order from the framework's defaults, the
// game's embedded config.toml ([Game.Config]), one file (--config PATH, or
// config.toml beside the executable, or for a game that embeds none
// config.toml in the working directory), then --set key=value; see
// package [github.com/metronome-go/metronome/framework/config] for the keys.
// Every flag: --config, --set, --headless (an invisible window; on Linux
// with no display the window goes on a private Xvfb server, while Windows
// and macOS always have a desktop for it), --ticks N (stop after N
// simulation ticks), --frames N (after N presented frames, which are not
// ticks: a headless window presents as fast as it can), --run-for D,
// --screenshot FILE and --print-config (each value with its source); and
// for bug reports --record FILE and --replay FILE (with --window,
// --replay-until N; --set and --config may change only how a replay is
// shown or heard, config.PresentationKeys, and any other key is refused);
// and --synctest K, which after every tick goes back K ticks from a
// snapshot, runs them again and stops the game at the first whose world
// hash differs, naming the tick, the component types and the fields
// ([ecs.SyncTest]; [Session.UseSyncTest]).
// An invalid file or flag stops the program before any
// window opens, with a message naming the file, the key and what is
// allowed.
//
// # Sound
//
// [Run] opens the default output device (through oto: ALSA on Linux,
// WASAPI on Windows, Core Audio on macOS) with a mixer made from the [audio]
// table and gives the ECS app its Audio resource; systems play sounds on
// their tick's span (see package ecs). With audio.enabled = false, or
// without a device, the game runs silently and one line on stderr says
// why. A replay with --window plays the recorded sounds the same way, at
// recorded speed, their spans moved onto the replay's clock; a headless
// --replay is a pure simulation and opens no device.
//
// # Closing the window
//
// The window's close button, a quit action, a tool and a stop signal of
// the operating system (SIGINT from Ctrl+C, SIGTERM, SIGHUP: reason
// [ReasonSignal]) are ordinary shutdown requests, put to the session's one
// policy
// ([runtime.ShutdownEndpoint]). Without one a request ends the game at
// once. A game that must ask first ("save first?") installs its policy
// from Setup, which runs before the loop starts:
//
//	shutdown := s.Runtime.Shutdown()
//	err := shutdown.SetPolicy(func(req runtime.ShutdownRequest) runtime.ShutdownDecision {
//		if !unsaved {
//			return runtime.ShutdownAccept
//		}
//		return runtime.ShutdownDefer // a system shows the question, then Accept or Refuse
//	})
//
// The policy and the systems run on the simulation owner, so they share
// game state without locks. A refused close keeps the window open; a stop
// — a system's RequestStop, [runtime.GameRuntime.Stop], the --ticks,
// --frames and --run-for limits, a failure — never asks. A quit action should go
// through Shutdown().Request(runtime.ReasonQuit) so that it asks too. See
// the Setup example. A second signal stops at once, whatever the policy
// says, and a third finds the default handling (the process ends); either
// of the first two runs the whole shutdown, so the recording gets its end
// marker and the screenshot is taken, and the game exits 0.
//
// # Several players
//
// A game played by several players declares them in [Game.Net]: how many,
// and per seat the actions that make one player's input (Setup registers
// the actions and fills the seats). Its systems read every player's input
// from the rollback.Players resource, Input(p)[i] being the i-th action of
// player p's seat, in every mode:
//
//   - with no match, every player is at this machine and player p reads
//     seat p from the devices (two players at one keyboard);
//   - in a match ([Session.UseMatch], [RunOptions.Match]) this machine's
//     player reads seat 0, the others' inputs arrive over the match's
//     rollback.Transport, and a rollback.Session predicts them and rolls
//     back when they differ. Resimulation, held ticks and the frame
//     advantage are owed to the scheduler through runtime.TickContext.Owed
//     and repaid by pacing; a peer ahead on a machine too slow for pacing
//     to slow it (it owes over 250 ms) yields one update in five, running
//     no tick, until it is no longer ahead. A match needs timing.mode = "fixed" and turns
//     on repay-debt with rollback declared, and past the debt cutoff the
//     host slows the whole match down together while a joined player
//     resynchronises ([Session.MatchTiming]). The input
//     delay, prediction window and hash interval are the [net] table's.
//     The session drives this machine's rollback.Side, one Update a tick,
//     and only prints its events and records its timeline. It reaches the
//     side, the match and a match recording's replay only through the
//     netplay.Driver that a network listed in [Net.Networks] carries, never
//     by name, and speaks to it (and to a [Lobby]) in package rollback's
//     words (rollback.Meeting, rollback.Connected, rollback.Play): package
//     framework imports no networking package, so a game that lists no
//     network links no socket, no cryptography, no rollback session, no
//     netplay match and no log/slog, and a [Match] it is given is
//     refused, naming netplay.UDPNetwork() to list.
//     [Session.NetStats] has the match's figures (rollbacks, depth,
//     advantage, bytes); a desync stops the session with a
//     rollback.Desync; a headless match prints rollback.ConfirmedLine at its end.
//
// --host ADDR and --join ADDR --token TOKEN play a match between
// processes over package rollback/netplay (the driver's Connect with the
// rollback.Meeting the flags name, over the networks the game lists in
// [Net.Networks]:
// netplay.UDPNetwork() for UDP with an HMAC, quicnet.Network() for QUIC
// datagrams with net.transport = "quic"; a game links only the networks
// it lists, and one that lists none links no transport and refuses the
// flags, naming what to list): the host prints the join command
// and waits for its players; peers of another game, simulation code or
// match configuration are refused (the identity hashes the source of the
// framework's simulation packages, by the sum go generate keeps at the
// module's root, and the game's, [Game.Source], with the Go version and
// the linked modules' sums, as the driver's Version computes it; and the
// timing's step,
// rate and mode, [net]'s players, delay, window, hash interval and
// transport, and the game's decoded settings). --bot SEED plays this machine's
// players with seeded random input; with --ticks N a match stops once N
// ticks are confirmed on every peer. The match's connection messages (a
// peer disconnected, came back, left) go to [RunOptions.Stderr].
// frameworktest.Match plays a match between sessions of one process over
// a simulated network.
//
// --spectate ADDR --token TOKEN watches a match: the spectator joins at
// any time (netplay.Options.Spectate), the host streams it the confirmed
// inputs from its input log (rollback.Session.NewFeed, held back
// net.spectator_delay ticks) and it runs them on a rollback.Follower,
// catching up from tick 0 (or, more than 300 ticks into the match, from
// a snapshot of the host's world) and then following live. It shows the
// match in a window, or with --headless or --no-window ends with the
// players' rollback.ConfirmedLine (with --ticks N, the same tick as theirs). It
// sends the host nothing but acknowledgements, so the players never wait
// for it.
//
// --lobby URL with --room CODE, --create or --quick N meets the other
// players through a lobby (cmd/lobby) instead, for a game that lists a
// lobby path in [Net].Lobby (a [Lobby], such as package
// rollback/netplay/lobbynet's); the [net] keys lobby, room, create and
// quick say the same, and the page's address ?lobby=URL&room=CODE. The
// game prints the room code and each step, or the reason it failed.
// --dedicated --lobby URL waits there as a dedicated host for a quick
// match. A game that lists none links no lobby client.
//
// A player whose process ended runs its --join command again once the
// host has reported it disconnected ([Match.Rejoining]): it catches up
// the same way and plays on. The match waits up to net.join_timeout for
// a disconnected peer, then ends. A joiner that holds the host at its
// window past timing.debt.cutoff (a frozen process) is played without
// (its input neutral, on every peer) and, when it runs again,
// resynchronises from the host's snapshot (rollback.ErrResync).
//
// # A dedicated host
//
// --host ADDR --dedicated serves a match without a seat: every player
// joins, and the host relays the match, acknowledges the inputs and
// compares hashes ([Match.Seatless]; rollback.Session.AddPeer). A session
// whose machine plays no player runs the simulation only, like a headless
// replay but on the real clock, paced at the tick rate: no window, GPU, X
// server, sound device or input. --no-window plays a --bot's side of a
// match the same way (load tests). A desktop build without cgo
// (CGO_ENABLED=0 go build) links no GLFW, OpenGL or ALSA, so its binary is
// static; it hosts --dedicated, plays --no-window and replays headless,
// and says so when asked for a window. examples/duel's README shows a
// systemd unit.
//
// --record FILE in a match records its confirmed timeline, not this
// machine's devices ([Session.RecordMatch]; recording.Net): each tick
// once it is settled (all its inputs confirmed and simulated with), with
// every player's confirmed input, the confirmed world hashes at
// net.hash_every and what pacing did (resimulated ticks, held time,
// advantage owed), on any machine of the match: a player, the host
// (dedicated too), a spectator or a rejoining player, which then catches
// up from tick 0 so that its recording starts there. With --ticks N it
// ends where the match's last line does, so every recording holds the
// same ticks. --replay FILE
// replays it like any recording, headless or with --window, with no
// network: the players' input comes from the file through the same
// rollback.Players resource, every hash is checked, and the result ends
// with the match's rollback.ConfirmedLine. --replay A --compare B compares two
// peers' recordings ([Bisect]) and names the tick, the fields and the
// first system whose output differs.
//
// # Asking a replay
//
// A recording answers questions, each a headless replay ([ReplayVisit]):
// --where 'Ball.Y > 400' prints the first tick after which a condition
// holds for some entity ([FirstWhere]; the language is package
// inspect/query's), --who-wrote 'Ball.X of entity(3.0)' every tick and
// system that changed one field ([WhoWrote]), and --replay-until N
// --expect 'COND' --write-test bug_test.go writes a test into the game's
// package that replays the recording for N ticks with frameworktest and
// checks the condition ([WriteTest]). A game's page asks none of them,
// nor --compare: it says to ask natively, and leaves their replays and
// the query language out of its module (replayask_js.go).
//
// # Threads
//
// GLFW needs the main thread. The package's init locks the main goroutine to
// it, and [Run] and [Main] must be called from main. Setup runs there too,
// before the window opens (the configuration's bindings are checked
// against it with no display needed); the window and its graphics context
// open after it, or at [Setup.Upload]. Systems run on the simulation owner
// (the same thread in sequential mode, a dedicated goroutine in concurrent
// mode).
//
// # Testing a game
//
// Package framework/frameworktest runs the same Game through the real
// runtime loop without a window or GPU, on virtual time, with scripted
// input and a recording renderer, in either run mode with the same ticks.
// Ticks are exact and nothing sleeps; a test can run a number of ticks or
// step, inspect and step again:
//
//	sim, _ := frameworktest.New(game, frameworktest.Options{})
//	sim.Input.Tap(sim.At(100*time.Millisecond), input.KeySpace, 20*time.Millisecond)
//	err := sim.RunTicks(120)
//	// inspect sim.App.World() and sim.Frames()
package framework
