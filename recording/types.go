package recording

import (
	"errors"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// FormatVersion is the version of the byte layout this build writes. Any
// change to the layout, including a new field in [Tick] or [Header], takes
// a new version, and so does a change of what a field means. A reader
// reads this version and [OldestFormatVersion] on: version 8 is version 9
// without Tick.Presented (it reads as 0); version 7 is version 8
// without [NetFigures] and [Presents] items; version 6 is version 7
// with Futures watermarks that count every platform request, not only the
// simulation owner's; version 5 is version 6 without networked matches (no Header.Net, no
// Tick.Players, no [Pacing] items); version 4 is version 5 without the rollback statistics in Tick.Timing
// (Stats.Resimulated, Ledger.Resimulation and Ledger.Advantage read as 0);
// version 3 is version 4 with 8-byte chunk frames (no checksum of the
// length field of its own, the version outside every checksum), without
// Header.Package and Header.Title, without End.Outcome and without hook
// items; version 2 is version 3 without shutdown requests in ticks.
const FormatVersion = 9

// OldestFormatVersion is the oldest layout this build still reads.
const OldestFormatVersion = 2

// DefaultCheckpointEvery is the checkpoint interval, in ticks, that a zero
// [Header.CheckpointEvery] stands for: one a second at 60 Hz.
const DefaultCheckpointEvery = 60

// Limits. A writer refuses to record more and a reader refuses to decode
// more, so a hostile or corrupt file cannot make a reader allocate more than
// a few times these sizes.
const (
	// MaxStringLen bounds Header.Framework, Header.Game and Header.Mode,
	// in bytes.
	MaxStringLen = 1024
	// MaxConfigLen bounds Header.Config, in bytes: the size a
	// configuration file may have (framework/config's MaxFileSize).
	MaxConfigLen = 1 << 20
	// MaxCheckpointEvery bounds Header.CheckpointEvery: about 4.8 hours
	// of ticks at 60 Hz.
	MaxCheckpointEvery = 1 << 20
	// MaxRecords bounds the input records of one tick. The input queue
	// keeps records until an update takes them, so only a simulation
	// stalled for minutes under a flood of input comes near it.
	MaxRecords = 1 << 20
	// MaxTypes bounds the component types of one checkpoint and the
	// distinct type names in one recording.
	MaxTypes = 4096
	// MaxNameLen bounds a component type name, in bytes.
	MaxNameLen = 1024
	// MaxErrorLen bounds the outcome message of [End], in bytes; the
	// writer cuts a longer message at a UTF-8 boundary.
	MaxErrorLen = 64 << 10
	// MaxChunk bounds a chunk's payload, in bytes. The writer cuts chunks
	// at about 64 KiB; only a tick with a great many records makes a
	// bigger one.
	MaxChunk = 64 << 20
	// MaxHeaderChunk bounds the header's chunk: every field at its
	// limit.
	MaxHeaderChunk = MaxConfigLen + 5*MaxStringLen + 64
	// MaxPlayers bounds Net.Players and MaxActions Net.Actions: the
	// players of a match and the action states of one player's input.
	MaxPlayers = 16
	MaxActions = 64
	// MaxPeer bounds Net.Peer.
	MaxPeer = 63
)

// chunkTarget is the payload size at which the writer hands a chunk over,
// and FlushInterval the time after which it does so whatever the size.
const chunkTarget = 64 << 10

// FlushInterval is how old the oldest tick of the chunk being filled may
// get, in recorded time (Update.End) or in real time (the writer's
// clock), before the writer hands the chunk to the disk. A process killed
// at any moment loses at most this much of its ticks, plus the tick being
// appended: under the second the package promises.
const FlushInterval = 500 * time.Millisecond

// Header describes the session a recording comes from: enough to refuse a
// replay of another game, another configuration or an unreadable format.
type Header struct {
	// Framework is the framework module's version, as the build reports
	// it: "v0.3.0", or "(devel)" for a build from a work tree.
	Framework string
	// Game is the game's module path.
	Game string
	// Package is the import path of the game's main package, such as
	// "example.com/asteroids/cmd/asteroids": one module can hold
	// several games. Empty in recordings older than version 4.
	Package string
	// Title is the game's title (framework.Game.Title). Empty in
	// recordings older than version 4.
	Title string
	// Config is the full effective configuration as TOML text.
	Config []byte
	// Seed seeds the simulation's random source.
	Seed uint64
	// Mode is the runtime mode the session ran in, "sequential" or
	// "concurrent". A replay consumes what was recorded, so it need not
	// run in the same mode; the name is for reports.
	Mode string
	// CheckpointEvery is the number of ticks between world-hash
	// checkpoints. Zero means [DefaultCheckpointEvery]; a reader always
	// returns the interval in force.
	CheckpointEvery int
	// Net, when set, makes this the recording of one machine's side of
	// a networked match (format 6 on); nil otherwise.
	Net *Net
}

// Net describes the networked match a recording comes from. Such a
// recording holds the match's confirmed timeline, not this machine's
// devices: one [Tick] per confirmed tick, numbered from 0, whose Players
// hold every player's confirmed action states; the checkpoints are the
// confirmed world hashes at the match's hash interval, and [Pacing]
// items say what the match's timing did. Every peer of a match in sync
// (and a spectator fed its confirmed stream) records the same ticks and
// hashes; only Peer differs. The match's [net] and [timing] values are in
// Header.Config with the rest of the configuration.
type Net struct {
	// Players is the number of players, 1 to [MaxPlayers], and Actions
	// the action states of one player's input for one tick, 1 to
	// [MaxActions].
	Players, Actions int
	// Peer is the peer number of the machine that recorded, 0 to
	// [MaxPeer]; -1 for a spectator.
	Peer int
}

// Tick is one update as the runtime handed it to the simulation, with
// everything nondeterministic that reached simulation code through the
// runtime before or during it.
type Tick struct {
	// Update is the scheduler's update.
	Update timing.Update
	// Timing is the scheduler's statistics for the update's batch, the
	// same for every update of a batch (runtime.TickContext.Timing).
	Timing timing.Stats
	// InputStart and InputEnd are the real interval the tick's input was
	// observed in, and Polls the number of polls it consumed.
	InputStart, InputEnd timing.Instant
	Polls                int
	// Records are the tick's input records in observation order. A
	// reader reuses the slice from tick to tick.
	Records []input.Record
	// Stop reports that a stop had been requested when the update began.
	Stop bool
	// Mailbox is how many mailbox items were drained before the update.
	Mailbox int
	// Futures is a watermark: how many of the results of the platform
	// requests the simulation owner made itself (runtime.Simulation's
	// dispatcher) were visible to the update. Other goroutines' requests
	// are not counted: their number follows the machine's timing (format
	// 6 and older counted them too).
	Futures uint64
	// Shutdown are the ordinary shutdown requests put to the session's
	// shutdown policy right before the update, in order (a policy runs
	// on the simulation owner and may change game state, such as opening
	// a "save first?" dialog). A reader reuses the slice from tick to tick.
	Shutdown []ShutdownRequest
	// Players, in the recording of a networked match (Header.Net), are
	// every player's confirmed action states for the tick:
	// Players[p*Actions+a] is player p's action a. Empty otherwise. A
	// reader reuses the slice from tick to tick.
	Players []input.Stats
	// Presented is how many frames the session presented after the
	// previous tick and before this one (before the first tick: since
	// the session began), as the runtime counted them when the tick was
	// recorded; 0 in a match's recording and before format 9. The frames
	// presented after a tick are the next tick's Presented, and after
	// the last tick the difference between the last [Presents] item and
	// the sum over the ticks.
	Presented int
}

// Pacing is what a networked match's timing did in one update of the
// machine that recorded it: the ticks it ran again after a rollback and
// the real time that took, the time it held the simulation back at the
// prediction window, and the frame advantage it handed to the scheduler
// as debt. It is written for every update in which any is not zero,
// after the confirmed ticks known by then. A replay runs the confirmed
// timeline and needs none of it; it is there so a reader sees how the
// match was paced.
type Pacing struct {
	// Update is the number of this machine's update, and Tick the
	// match's next tick to simulate after it.
	Update uint64
	Tick   int64
	// Resimulated is the number of ticks run again, ResimulationTime
	// the real time they took.
	Resimulated      int
	ResimulationTime time.Duration
	// Held is the time the update held the simulation back (one step
	// when it held, else 0).
	Held time.Duration
	// Advantage is the frame advantage handed to the scheduler as debt
	// (negative: this machine was ahead).
	Advantage time.Duration
}

// NetFigures are a networked match's figures on the machine that
// recorded it, as rollback.PeerStats counts them from the match's start,
// at one moment: rollback.Recorder writes them about once a second of
// this machine's updates, so a reader sees the round trips, traffic,
// rollbacks, held ticks and resynchronisations the match's net: line
// reported, over time. The names are PeerStats' (this package cannot
// import rollback, which imports it). A replay needs none of them.
type NetFigures struct {
	// Update is the number of this machine's update the figures were
	// taken after; Tick the match's next tick to simulate then and
	// Confirmed the first tick whose inputs were not all confirmed.
	Update          uint64
	Tick, Confirmed int64
	// RTT is the longest round trip to a peer the transport measured, 0
	// when it measures none.
	RTT time.Duration
	// BytesSent and BytesReceived count the messages' bytes, Sent and
	// Received the messages.
	BytesSent, BytesReceived, Sent, Received uint64
	// Rollbacks counts restores, Resimulated the ticks run again and
	// MaxDepth the most ticks one rollback ran again.
	Rollbacks, Resimulated uint64
	MaxDepth               int
	// Held counts the updates held back at the prediction window's end.
	Held uint64
	// Resyncs counts this peer's resynchronisations from the host's
	// snapshot, PlayedOn the times the host played on without a peer.
	Resyncs, PlayedOn int
	// SlowedDown is the time the host dropped past the debt cutoff.
	SlowedDown time.Duration
	// Mispredicted counts the player-ticks simulated on a prediction
	// that the confirmed input proved wrong, and Malformed the messages
	// that did not decode.
	Mispredicted, Malformed uint64
}

// Presents are a session's presented frames at one moment: how many
// updates had run (Updates, the runtime's count) and frames had been
// presented (Frames) since the session began. A writer with
// [Writer.WatchPresents] notes them each time it hands a chunk over
// (about every half second of ticks), so a reader sees how many frames
// were presented over each span of ticks, as a live inspected game does.
type Presents struct {
	Updates, Frames uint64
}

// ShutdownRequest is one ordinary shutdown request as the policy saw it
// (runtime.ShutdownRequest without what the runtime derives again).
type ShutdownRequest struct {
	// Reason is the request's reason ("window close", "quit", ...).
	Reason string
	// At is the session clock's reading when the request was made.
	At timing.Instant
	// Seq numbers the session's requests from 1.
	Seq uint64
}

// MaxShutdownRequests is the most requests one tick may carry, and
// MaxReasonBytes the longest reason.
const (
	MaxShutdownRequests = 1024
	MaxReasonBytes      = 256
)

// TypeHash is the share of one component type in a world hash.
type TypeHash struct {
	// Name names the component type, as the world hash does.
	Name string
	// Hash is the hash of every component value of the type.
	Hash uint64
	// Count is the number of entities that have the component.
	Count int
}

// Checkpoint is a world hash taken after a tick. The per-type breakdown
// lets a replay say which component types differ, not only that the world
// does.
type Checkpoint struct {
	// Tick is the Update.Number of the tick the world was hashed after.
	Tick uint64
	// Hash is the hash of the whole world.
	Hash uint64
	// Types are the component types in the world, in the order the hash
	// visited them. A reader reuses the slice from checkpoint to
	// checkpoint; the names stay valid.
	Types []TypeHash
}

// End closes a recording: the session's outcome and what the recording
// holds, so a reader can tell a complete recording from a cut one.
type End struct {
	// Outcome says how the session ended. A recording older than
	// version 4 has Clean or Failed, from Error.
	Outcome Outcome
	// Error is the outcome's message: the error the session failed with,
	// the value it panicked with, or the signal that stopped it; empty
	// for a clean stop.
	Error string
	// Ticks and Checkpoints count what the writer appended. In the
	// recording of a networked match the ticks are the confirmed ticks 0
	// to Ticks-1, so Ticks-1 is the last confirmed tick.
	Ticks, Checkpoints uint64
}

// Err returns the session's outcome as an error: nil for a clean stop or
// a stop by a signal, the message for a failure or a panic.
func (e *End) Err() error {
	switch e.Outcome {
	case Clean, Signal:
		return nil
	case Panicked:
		return errors.New("panic: " + e.Error)
	}
	return errors.New(e.Error)
}

// Outcome is how a recorded session ended.
type Outcome uint8

const (
	// Clean: the session stopped as asked (a stop, an accepted
	// shutdown request, the end of a replay).
	Clean Outcome = iota
	// Signal: a signal of the operating system (an interrupt, a
	// termination request, a hang-up) stopped the session in order;
	// End.Error names it.
	Signal
	// Failed: the session ended with an error, End.Error.
	Failed
	// Panicked: the session ended in a panic that no hook recovered
	// from; End.Error is the panic value.
	Panicked
	// Desynced, Abandoned, Refused and HostGone end a networked match
	// other than finished (rollback.Outcome): the peers' confirmed world
	// hashes differed, a player's peer left or was not back in time, the
	// host refused this peer, the host went away mid-match. End.Error says
	// it in words. A finished match is Clean.
	Desynced
	Abandoned
	Refused
	HostGone
	numOutcomes
)

func (o Outcome) String() string {
	switch o {
	case Clean:
		return "clean stop"
	case Signal:
		return "stopped by a signal"
	case Failed:
		return "failed"
	case Panicked:
		return "panicked"
	case Desynced:
		return "match desynced"
	case Abandoned:
		return "match abandoned"
	case Refused:
		return "refused by the host"
	case HostGone:
		return "host gone"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// HookName names a simulation hook that runs outside the updates.
type HookName uint8

const (
	// HookInitSimulation is the game's InitSimulation, before the first
	// tick.
	HookInitSimulation HookName = iota
	// HookDeinitSimulation is the game's DeinitSimulation, after the last
	// tick.
	HookDeinitSimulation
)

func (n HookName) String() string {
	switch n {
	case HookInitSimulation:
		return "InitSimulation"
	case HookDeinitSimulation:
		return "DeinitSimulation"
	}
	return fmt.Sprintf("HookName(%d)", uint8(n))
}

// Hook is what a simulation hook outside the updates saw of the
// nondeterministic world: such a hook may wait for platform work, so the
// results it could read are a fact of the session, as they are for a
// [Tick]. An InitSimulation hook comes before the first tick, a
// DeinitSimulation hook after the last one.
type Hook struct {
	// Name says which hook ran.
	Name HookName
	// Futures is a watermark, as [Tick.Futures]: how many of the
	// simulation owner's platform results were visible to the hook when
	// it returned.
	Futures uint64
}

// Item is what [Reader.Next] returns: a *[Tick], a *[Checkpoint], a
// *[Hook], a *[Pacing], a *[NetFigures], a *[Presents] or an *[End].
// Switch on the type.
type Item interface{ item() }

func (*Tick) item()       {}
func (*Checkpoint) item() {}
func (*Hook) item()       {}
func (*End) item()        {}
func (*Pacing) item()     {}
func (*NetFigures) item() {}
func (*Presents) item()   {}
