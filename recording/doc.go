// Package recording is the file format of Metronome's record and replay: a
// session's header, every tick as the runtime handed it to the simulation,
// world-hash checkpoints and an end marker, in a compact stream of
// checksummed chunks that can be read while it is written.
//
// The package is pure Go and knows nothing of the runtime: the runtime
// fills a [Tick] per update and a [Checkpoint] every
// [Header.CheckpointEvery] ticks; a replay reads them back and checks its
// own hashes against the recorded ones.
//
// # A networked match
//
// A recording whose header has [Header.Net] is one machine's side of a
// networked match, and holds the match's confirmed timeline instead of
// that machine's devices: one [Tick] per confirmed tick, numbered from 0
// on the step's timeline, whose Players are every player's confirmed
// action states; the checkpoints are the confirmed world hashes at the
// match's hash interval; [Pacing] items say what the match's timing did
// (ticks run again after a rollback, time held at the prediction window,
// advantage owed) and [NetFigures] items its network figures about
// once a second (round trip, traffic, rollbacks, resynchronisations);
// the end marker's tick count makes Ticks-1 the last
// confirmed tick. Every peer of a match in sync, and a spectator fed the
// confirmed stream, records the same ticks and hashes; only Net.Peer
// differs. [Writer.Pacing] and Append of such ticks allocate nothing in
// steady state.
//
// # Recording
//
// [NewWriter] (or [Create] for a file) writes the header at once, so a
// full disk or an unwritable path fails the session's start.
// [Writer.Append] encodes a tick into a reused buffer, allocating nothing
// in steady state, and hands full chunks to a goroutine the Writer owns,
// so the simulation never waits for the disk. A chunk is handed over when
// its first tick is [FlushInterval] (half a second) old, in recorded time
// (the ticks' Update.End) or in real time (the writer's clock,
// [Writer.SetClock]), when it reaches 64 KiB, and on [Writer.Flush] and
// [Writer.Finish]: a process killed at any moment, from the first tick
// on, loses less than a second of ticks. [Writer.WatchPresents] has the
// writer note the session's presented frames at each chunk it hands
// over, and the runtime gives each tick the frames presented since the
// previous one (Tick.Presented, which costs a tick nothing while the
// count stays as it was). The first
// problem (a failed write, a value the format cannot hold, a disk so slow
// that 256 chunks wait) stops the recording and is returned by every later
// call and by Close; nothing is lost silently.
//
//	w, err := recording.Create("game.rec", header)
//	...
//	err = w.Append(&tick) // every update
//	err = w.Checkpoint(&cp) // every CheckpointEvery ticks
//	...
//	err = w.Finish(recording.Failed, sessionErr.Error()) // or w.Close(sessionErr)
//
// # Replaying
//
// [NewReader] (or [Open]) checks the magic number and format version and
// reads the header; [Reader.Next] returns a *[Tick], a *[Checkpoint] or
// the *[End] in order, decoding into storage it reuses, and io.EOF after
// the end marker; data after the end marker is an error. The end marker
// says how the session ended ([Outcome]: a clean stop, a signal, a
// failure with its error, a panic).
//
// A reader can follow a recording still being written: when the data
// stops inside a chunk, Next returns an error wrapping [ErrIncomplete],
// and a later call continues once the file has grown. A recording whose
// writer died reads the same way: every complete chunk, then
// ErrIncomplete. Everything else that is wrong is final and wraps
// [ErrCorrupt], [ErrNotRecording] or [ErrVersion], in an [*Error] that
// names the file, the byte offset and how many ticks came before:
//
//	recording: game.rec: byte 4: format version 9 is not supported (this build reads 2 to 8)
//	recording: game.rec: byte 81920, after 4800 ticks: chunk 80: checksum 0x1c2d3e4f does not match its contents (0x0a0b0c0d)
//
// A chunk's length has a checksum of its own, so a damaged length is
// damage (corrupt), never a chunk still being written; a chunk whose
// payload fails its checksum with nothing after it is taken for a torn
// write (incomplete), one with data after it is damage. The version
// number is under the header's checksum: a damaged version byte is
// damage, not another version. Nothing
// in a file can make the reader panic or allocate without bound: every
// length has a limit ([MaxChunk], [MaxHeaderChunk], [MaxRecords],
// [MaxTypes], [MaxNameLen], [MaxStringLen], [MaxConfigLen] (1 MiB),
// [MaxErrorLen]), the input buffer grows
// only with data the source has delivered, and a count is believed only
// if the rest of its chunk could hold that many entries.
//
// # Byte layout
//
// Integers are unsigned LEB128 varints ("uvarint") unless fixed; signed
// values are zigzag-encoded ("varint"); fixed-width values are
// little-endian.
//
//	file   = magic "MTRC" (4 bytes), format version (uvarint, 4), chunk...
//	chunk  = length L (uint32), S = CRC-32C (Castagnoli) of the 4 length
//	         bytes (uint32; for chunk 0 of the magic number, the version
//	         and the length bytes), CRC-32C of the payload continued from
//	         S (uint32), payload (L bytes: 1 to 64 MiB, chunk 0 at most
//	         MaxHeaderChunk)
//	payload = chunk number (uvarint: 0 for the header, then 1, 2, ...), items
//
// Chunk 0 holds the header only: Framework, Game, Mode, Package and Title
// (each a uvarint length and bytes), Config (length and bytes), Seed
// (uint64), CheckpointEvery (uvarint) and Net: Players (uvarint, 0 for no
// match), then when not 0 Actions (uvarint) and Peer (varint). Every later
// chunk holds whole items, each starting with a uvarint h: an even h is a
// tick with flags h>>1; h = 1 a checkpoint; h = 5 a hook; h = 7 a pacing
// item and h = 9 net figures (a match's recording only); h = 11 presents;
// h = 3 the end marker, which is the last item of the file.
//
// A tick's flags hold the update Kind (bits 0-1) and Final, Quiet, Coarse
// and Stop as bits, and mark each field that differs from its prediction;
// only those follow, in a fixed order, as varints of the difference. The
// predictions come from the previous tick: the same Delta, Start at the
// previous End, End at Start+Delta, Number plus one, Steps 1 for a fixed
// update and 0 otherwise, Dropped, Mailbox 0, the same Polls and Futures,
// and an input interval related to the update as the previous one was
// (its span, or starting where the previous interval ended and as long).
// The Timing follows when it differs from the previous tick's (on the
// first update of a batch): a uvarint mask of its 29 fields that differ
// from their prediction, then each of those (counters and clocks against
// their previous step, other integers against their previous value,
// floats as the xor of their bits, Ledger.PendingRemainder against the
// ledger identity and Alpha against remainder/step). The records follow
// last: a count, then per record a header byte (kind, Synthetic, its
// kind's flag, short or full form, same time as before), its time as a
// varint from the previous record's (the first from InputStart) and its
// kind's fields, or all fields in the full form; cursor and axis floats
// are byte-reversed bits, short for whole and half numbers. When its flag
// (bit 20) is set, the shutdown requests put to the policy before the
// update come after the records: a count, then per request its reason
// (length and bytes), At as a varint from the update's Start and Seq.
//
// In a match's recording, flag bit 21 marks a tick whose players' input
// differs from the previous tick's (all zero before the first tick); it
// follows the shutdown requests: a uvarint mask of the players whose input
// changed, then per such player a uvarint mask of its actions that
// changed, then per such action a uvarint of the fields that are not zero
// (bit 0 Down and bit 1 WasDown are the values; then Presses, Releases,
// Held as varints, Value, StartValue, Mean and Peak as byte-reversed
// float32 bits) and those fields in that order. Flag bit 22 (format 9
// on) marks a tick whose Presented differs from the previous tick's (0
// before the first tick); its difference follows last, as a varint. A
// pacing item holds the
// update (uvarint), the tick, Resimulated, ResimulationTime, Held and
// Advantage (varints). Net figures ([NetFigures]) hold Update (uvarint),
// Tick, Confirmed and RTT (varints), BytesSent, BytesReceived, Sent,
// Received, Rollbacks and Resimulated (uvarints), MaxDepth (varint),
// Held (uvarint), Resyncs, PlayedOn and SlowedDown (varints),
// Mispredicted and Malformed (uvarints), each whole: rollback.Recorder
// writes them about once a second. Presents ([Presents]) hold Updates
// and Frames (uvarints), whole; a writer watching them
// ([Writer.WatchPresents]) notes them before it hands a chunk over and
// before the end marker, when they moved.
//
// A hook holds the hook's name (one byte: 0 InitSimulation, 1
// DeinitSimulation) and its Futures watermark (uvarint).
//
// Version 8 is version 9 without tick flag bit 22 (Presented reads as
// 0). Version 7 is version 8 without net figures and presents. Version 6
// has version 7's layout; its Futures watermarks count every
// platform request, version 7's only the simulation owner's. Version 5 is
// version 6 without the header's Net, tick flag bit 21 and pacing items. Version 4 is version 5 without the rollback statistics in
// the Timing (its mask has 29 bits). Version 3 is version 4 with an
// 8-byte frame (the length, then one CRC-32C of the length bytes and the
// payload; the version under no checksum), without Package and Title in
// the header, without the end marker's outcome and without hooks; version
// 2 is version 3 without the shutdown flag. This build reads all eight.
//
// A checkpoint holds the tick number (varint from the last tick's), the
// world hash (uint64) and a count of types; each type is a uvarint
// index<<2 | count changed<<1 | hash changed, a name (length and bytes)
// when the index is the next new one, then the hash (uint64) and the
// count (varint from the previous) when they changed since the type's
// previous checkpoint. The end marker holds the tick and checkpoint
// counts (uvarints), which a reader checks, the outcome (uvarint: 0 clean,
// 1 signal, 2 failed, 3 panicked) and its message (length and bytes,
// empty exactly for a clean stop).
//
// Every delta wraps around 64 bits, so any value round-trips exactly,
// including floats' NaN payloads; a session at 60 Hz costs about 15 to 25
// bytes a tick without input.
//
// # Threads
//
// A [Writer] belongs to one goroutine (the simulation owner) apart from
// the background goroutine it starts in NewWriter and joins in Close. A
// [Reader] belongs to one goroutine.
package recording
