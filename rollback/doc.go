// Package rollback runs a match between peers with rollback netcode: each
// session simulates every tick at once with the inputs it has, predicts a
// remote player's missing input by repeating that player's last
// confirmed one, and when a confirmed input turns out to differ from its
// prediction restores the state of that tick and runs the ticks since
// again, within the same update.
//
// # Inputs
//
// A player's input for a tick is one [input.Stats] per action, the same
// action states the game's systems read from an [input.Tick]: not raw
// device records, which differ between machines. A local player's input
// is given through [Session.Local] before [Session.Advance] and becomes
// the input of the tick Delay ticks ahead ([Player.Delay], default 2), so
// that it usually reaches the peers before they need it.
//
// # The window, and time owed
//
// A session runs at most [Options.Window] ticks (default 8) past the last
// tick whose inputs are all confirmed. At the window's end it does not
// predict further and never drops a rollback: [Session.Advance] holds
// the simulation ([Step.Held], counted in [Stats.Held]) and the time not
// simulated is owed, as any other debt of the scheduler. The real time
// spent resimulating ([Step.ResimulationTime]) is owed the same way, and
// so is the frame advantage over the peers ([Session.AdvantageDebt]:
// ahead is negative debt), which timing's pacing repays by running a few
// percent slow or fast, never by waiting whole frames. The peers share
// what they owe: each message carries the sender's debt
// ([Session.SetDebt]), and a peer that owes the match's mean
// ([Session.SharedDebt]) less its frame advantage repays a stall of any
// peer together with the others, at the same pace.
//
// # Lockstep
//
// A window of 0 ([Options.Window], the [net] table's window) is
// lockstep: the session never predicts and never rolls back; a tick is
// simulated only once every player's input for it is confirmed, and the
// update holds (owing its time) until then. Each update's local input is
// given at once, held or not, so lockstep works with no input delay. The
// round trip then shows as held ticks wherever it exceeds the input
// delay: choose lockstep for a game whose ticks are too costly to run
// again, or for players on a local network; otherwise prediction hides
// the latency.
//
// # Catching up on the confirmed inputs
//
// A session with [Options.LogBytes] keeps the match's confirmed input
// log: every player's confirmed action states of every tick from its
// first (0, or [NewSessionAfter]'s), coded as the messages code a block
// (one byte for a tick on which no one changed anything), within the bound it is given ([DefaultLogBytes],
// 8 MiB, holds tens of hours at 60 Hz; a full log stops logging and the
// match goes on). A [Feed] streams the log from the tick a receiver asks
// for, over the same [Transport], in checksummed messages of at most
// [MaxMessage], a few ahead of the receiver's acknowledgement and
// sending again from it when no progress comes, optionally holding back
// the last few confirmed ticks (a spectator's delay). A [Follower] takes
// them and runs its [Simulation] on confirmed inputs only, never
// predicting, as many ticks an update as a time budget allows, so a
// window stays responsive while a new process catches up:
//
//	// the host, per receiver, every update:
//	feed.Receive(ack) // the receiver's request and acknowledgement
//	for range 4 { m, ok, err := feed.Append(msg[:0]); if !ok { break }; send(m) }
//	feed.Update()
//
//	// the receiver, every update:
//	fol.Receive(m) // each catch-up message
//	app.Follow(fol, ctx, budget, limit) // fol.Advance, in the update's context
//	send(fol.AppendAck(ack[:0]))
//
// A game's world follows as an [App] (the follower's Simulation):
// [App.Follow] runs each tick in the present update's timing, as
// [App.Update] runs a session's.
//
// A follower starts from the state before its start tick: tick 0, the
// initial world every peer builds the same from the same game and
// configuration. When its simulation's state travels
// ([StateSimulation]; an [App]'s does) and it asks from more than 300
// ticks behind, the feed sends it the encoded state of the latest
// confirmed tick instead, in checksummed chunks, then the inputs from a
// little before that tick (held, not run: a player's first messages are
// coded against them), so catching up costs the same however long the
// match has run ([FollowerStats].StateTick and StateBytes say which it
// got). A player who catches up (a restarted
// process rejoining its slot) then plays on with [NewSessionAfter], from
// the tick the follower reached once [Follower.CaughtUp]: every catch-up
// message says how far the feed could send, and while the player was
// away its peers confirmed nothing past its last input, so the feed ends
// there. Its peers call [Session.Rejoined] for it. [IsAck] and
// [IsCatchUp] tell these messages from a session's, for a host that
// feeds a player on the same transport.
//
// # A peer past the cutoff
//
// A host held for one peer longer than its scheduler can owe, and which
// has not heard from that peer for a quarter of a second (a peer whose
// messages keep coming is slow, and the match slows down with it), may
// play on without it: [Session.Fill] confirms that peer's players'
// inputs as neutral ones, the host's messages say so (which players,
// from which tick), and when the peer hears it its Advance fails with
// [ErrResync], even if it ran ahead of what the host had of it; it catches up from the host's snapshot
// ([Follower.NeedState]) as a rejoining player does, and the host stops
// filling ([Session.Unfill]) when it asks. The host's messages carry the
// inputs it fills, so in a match of three or more the other peers play
// on with them (see resync.go).
//
// # Desyncs
//
// Every [Options.HashEvery] ticks (default 60; 1 while developing) a
// session hashes the state of a tick once all inputs before it are
// confirmed and sends the hash; a peer whose hash of the same tick
// differs is a desync ([Session.Desync], naming the tick). A hash for a
// tick the session no longer holds is counted, not ignored
// ([Stats.StaleHashes]). After a desync the simulations have diverged for
// good: stop the match, keep both peers' recordings of confirmed inputs
// and replay them side by side to find the first tick and component that
// differ.
//
// # State that travels
//
// A peer past the cutoff, a player rejoining or a spectator arriving late
// catches up from a recent tick instead of tick 0: [App.AppendState]
// encodes the state an App holds for a tick (ecs's binary snapshot:
// versioned, checksummed, the same bytes on every platform) and
// [App.LoadState] puts a fresh App of the same game in that state, from
// which the confirmed inputs since carry it on. The bytes are one slice;
// cutting them into packets is the transport's business.
//
// # Transport
//
// A session knows nothing of sockets. [Session.AppendMessage] writes what
// it sends after each update and [Session.Receive] takes what arrives;
// messages repeat the inputs not yet confirmed by the peers, so losing
// some costs only delay. Package netsim (rollback/netsim) simulates the network between
// sessions of one process, seeded and on virtual time; package netplay
// (rollback/netplay) carries them between processes over UDP or QUIC, as a
// [Transport]. Take a message with [Session.ReceiveFrom] when the
// transport names its sender, so that no peer speaks for another.
//
//	s, err := rollback.NewSession(sim, opts)
//	// every update:
//	copy(s.Local(me), actionStates)
//	step, err := s.Advance()
//	msg = s.AppendMessage(msg[:0])
//	send(msg)
//	for each message m received from peer p: s.ReceiveFrom(p, m)
//
// # A match
//
// A [Peer] is one player's machine in a match and a [Spectator] one that
// watches, as GGRS's P2PSession and SpectatorSession sit on their
// protocol: they own the session (or the [Follower] of a peer catching
// up), the [Transport], the spectators' feeds and every policy of a
// match (patience with a silent player, standing aside when far ahead,
// playing on without a peer past the debt cutoff, sharing the match's
// debt, late joins, rejoins, resynchronisation). One [Peer.Update] per
// tick takes what arrived, runs the session through its [App], owes
// [Step.Resimulated], held ticks and its share of the match's debt less
// its frame advantage to the scheduler (runtime.TickContext.Owed) and
// sends its messages; [Peer.Events] says what to show and
// [Peer.Outcome] how the match ended ([Outcome]: finished, desynced,
// abandoned, refused, host gone). A [Side] is either of them as a game
// loop drives it: [NewPlayerSide] reads each local player's seat (its
// actions) from the tick's input, and [Side.Update] stops the loop when
// the match finished. A framework game does none of this itself: it
// declares its players and seats (framework.Game.Net), and the framework
// has the Side made from its configuration (netplay.Driver.Play, through
// a network the game lists), prints its events and records its
// timeline; the end lines are [PeerStats.NetLine], [ConfirmedLine] and
// [Pacing.WriteLines]. The match's settings are [MatchOptions], the
// configuration's [net] table, whose [ICE] keys (STUN and TURN servers,
// the relay policy) are each machine's own and reach a WebRTC network
// through package rollback/netplay.
//
// # Meeting a match
//
// A program and the package that connects its matches speak in this
// package's words, which need no socket or cryptography: a [Meeting]
// (this machine's [Role], the host's address and token or the lobby
// keys of [MatchOptions], the game's [Identity], the [Network]s the
// program lists) goes in, a [Connected] match (a [Transport] and the
// [Seating]) comes out, and a [Play] is this machine's side of it, a
// [Replay] the replay of its recording. Package rollback/netplay's
// Driver and its lobby path implement them; package framework names
// only these, so a game that lists no network links no networking.
//
// # Recording a match
//
// A match's recording is its confirmed timeline, the same on every peer
// in sync: a [Recorder] writes each tick once it is settled (every
// player's confirmed input, the confirmed hashes, the pacing) into a
// recording.Writer made with [Side.RecordingHeader], and a [Playback]
// gives a replay of that file the recorded input through [Players] and
// the hashes its checkpoints matched. The framework keeps only the file.
//
// An [App] of a framework match runs every tick with the configured step
// ([App.SetDelta]), so that an exact rate's alternating deltas cannot
// make game time differ between a tick's runs or between peers.
//
// # Ready for rollback
//
// Every peer must reach the same world from the same inputs, and a tick
// run again after a restore must do what it did the first time. What a
// game keeps to for that (fixed ticks, input only from [Players], all
// state in the world as plain data, no map or query order, rounded float
// products and no architecture-dependent math functions, the seeded
// random source, presentation kept apart) is one checklist,
// docs/ready-for-rollback.md in the framework's repository. A framework
// game takes the [Players] resource in its Setup (the framework adds it
// first).
//
// A Session and its [Simulation] belong to the simulation goroutine.
package rollback
