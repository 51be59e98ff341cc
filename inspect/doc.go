// Package inspect is Metronome's time-travel debugger: a seek engine over
// a replayed recording, and a local web page with a JSON API that scrub
// through it, showing every entity, resource and input at any tick.
// Nothing can be changed from it: it is read-only.
//
// # Seeking
//
// A [Replay] is filled by a replay's first pass: after every tick the
// replay runs, [Replay.Observe] keeps the tick's context and input, adds
// it to the timeline ([Tick]: update kind, delta, dropped and suspended
// time, debt and rate, input records, entities, the markers systems set
// with ecs.Sys.Mark, the game's states: each ecs.States machine's
// state on the first tick and every transition after, by name, and the
// sounds the tick started and stopped, see [Sounds]) and saves
// keyframes of the world in the ECS snapshot's wire form. [Replay.Seek] then reaches any tick by restoring
// the keyframe at or before it and running the ticks between again (or by
// running forward from where the world is, when that is nearer). The
// keyframes' spacing is picked from the first pass's measured speed, so
// that the ticks from one keyframe to the next run in about [SeekBudget]
// (a millisecond; [Options.KeyframeEvery] sets it instead), and the last
// few keyframes restored stay decoded. The keyframes are kept compactly:
// one in eight whole and compressed, each other one as its difference
// from the keyframe before (keyframes.go), about a tenth of their size
// (the demo's 500 sprites: 5 to 7 MiB over ten minutes instead of 50).
// The ticks are kept compactly too, a few bytes each (ticklog.go). 36,000 ticks of Breakout seek in a median
// of about half a millisecond and a worst of under 100 ms on a busy
// machine (see the README's figures). [Replay.Memory] reports what the
// keyframes and the kept ticks hold.
//
// framework.InspectReplay runs the first pass over a recording of a game,
// and a game's --replay FILE --inspect ADDR serves the page:
//
//	go run . --replay bug.rec --inspect :7777
//
// # A live game
//
// A game run with --inspect ADDR and no --replay is inspected as it
// plays: it records into a [Live] in memory (framework.RunOptions.RecordTo;
// the recording writer's goroutine hands chunks over, so the tick pays
// what --record pays and allocates nothing), and a follower goroutine
// (framework.InspectLive) replays that recording as it grows, checking
// its world hashes and keeping keyframes, into the Replay the page reads
// ([ListenLive], [NewLiveHandler]). The follower is lazy: with no page
// open (no request for [LiveOptions.Idle], 5 s by default) it replays
// nothing and the recording waits in memory; the page's first request
// wakes it and it catches up from where it stopped, at replay speed.
// While the page is open it follows the live end, at most a recording
// chunk (half a second of game time) behind, and the page can seek back
// while the game goes on: a request waits for the follower's next tick
// and never for the game's. After the game ends the follower reads to
// the end and the page keeps the whole session until the process is
// stopped.
//
// A match is followed the same way (--inspect with --host, --join,
// --spectate or the lobby's flags): its recording is the one
// rollback.Recorder writes as ticks are confirmed, so the inspector
// shows the confirmed ticks only and trails the match's live tick by
// the rollback window (plus the recording's chunk); every tick it shows
// is one all peers agree on. A seek runs ticks again with every
// player's confirmed input, which the follower keeps as it reads them,
// and the net figures band grows as the recording does (read on the
// page's requests, not on the match's tick). The match's tick pays what
// --record pays and nothing more; /api/session's match says the ticks
// are a match's confirmed ones.
//
// # Serving
//
// [Listen] serves the page and the API on an address: loopback only,
// unless [ServerOptions.Remote], which then requires an access token on
// every request (printed in the page's address at start). [NewHandler]
// is the same for a server of the caller's. Every request takes the
// server's lock, so one request at a time moves the world.
//
// In a browser build there is no server: [ServeInPage] answers the page's
// requests in the page, through a JavaScript function the page calls
// instead of fetch, and the page given ?wasm=game.wasm&arg=... runs that
// game beside it (wasm_exec.js next to it) and starts once it answers.
//
// # The JSON API
//
// Every endpoint answers GET with JSON; a bad parameter is a 400 and
// something that does not exist (an entity not alive at the tick) a 404,
// each with {"error": "..."} naming the parameter and its allowed range.
// tick defaults to the tick the world is at.
//
//	/api/session                    ticks, keyframe interval, memory, component types, markers, the presents, live, match (the ticks are a match's confirmed ones)
//	/api/timeline?from=&to=         the timeline's ticks [from, to) (default: all), with markers, state changes and sounds, presents and a match's net figures
//	/api/seek?tick=                 move the world; says from where, how long it took, and the world's hash after the tick
//	/api/entities?tick=&component=  live entities and their component types (only those with component)
//	/api/entity?tick=&id=&gen=      one entity's components, field by field in declaration order
//	/api/resources?tick=            every world resource (the gameplay queue and timers among them)
//	/api/input?tick=                the input the tick consumed, per action
//	/api/field?id=&gen=&path=&from=&to=  one field (Component.Field.Sub, [i] for elements) at every tick of a range
//	/api/frame?tick=                the tick's frame in drawing order: pass clears, quads (corners on the window, tint, blend, texture and texel source), shapes (triangles, discs)
//	/api/texture?id=&gen=           a texture a quad of the frame names, as a PNG of the pixels the game loaded
//	/api/who-wrote?id=&gen=&path=&from=&until=  every update and system that changed one field
//	/api/where?expr=&until=         the first update after which a condition (package inspect/query) holds
//	/api/compare                    where the --compare recording parts: tick, system, fields
//	POST /api/write-test?file=&ticks=&expect=  write a test replaying ticks updates, then checking expect
//
// The last four replay the recording again from its start, through the
// [Analysis] the game's framework gives ([ServerOptions.Analysis]):
// seconds over a long recording, and the world's tick is left as it
// was. Entities go in and out as their ID and generation (id, gen).
//
// A component is named by its full type name (main.Ball) or without its
// package (Ball). Values are written by reflection, unexported fields
// included; entities as "e12v3"; floats that JSON cannot hold as strings.
// Presentation-only and hash-excluded components are marked.
//
// # Presents and network figures
//
// A recording keeps what the session presented: the recording writer
// notes the runtime's updates and presented frames each time it hands a
// chunk over (recording.Writer.WatchPresents, which --record and
// --inspect set), so a replay's timeline shows the frames presented over
// each half second of ticks ([ReadFigures], [Replay.Presents]), the same
// spans a live game's presents have ([Live.Watch] reads the same
// counters at the same moments). From format 9 on each recorded tick
// also carries the frames presented since the tick before
// (recording.Tick.Presented: one atomic read by the runtime, and no byte
// while the count stays as it was), so the timeline gives, for each tick
// of a solo session, the frames presented after it and before the next
// ([Tick].Presented, /api/timeline's presented; -1 where not known: a
// live game's last tick until the next one is recorded). A live game's
// come from its recording as it grows, read on the page's requests; the
// page draws them as a bar a tick once zoomed in to a few pixels a tick.
//
// A match's recording opens as well (framework.InspectReplay): its ticks
// are the match's confirmed ticks, each run again in a seek with every
// player's recorded input, and it keeps the match's figures about once a
// second (rollback.Recorder: round trip, bytes each way, rollbacks and
// the deepest, held updates, resyncs, time dropped), which the timeline
// shows as a band ([NetSpan], /api/timeline's net).
//
// The sounds on the timeline are those the replay asks for: the
// inspector's replay session has a silent audio player, which
// framework taps (audio.Player.Tapped, [Sounds.Tap]) so that each tick's
// plays, loops, streams, stops and bus changes are noted by sound name
// ([Tick].Sounds, /api/timeline's sounds, marks above the strip's
// bars). The game's own player is never tapped: a live game under
// --inspect plays as it does without.
//
// # Not yet
//
// A live match's page has no presents row: the game's counters count
// its updates, not the confirmed ticks its recording holds. A recording
// from before format 8 has no presents or net figures, and one from
// before format 9 (or a match's) no presents per tick.
//
// A sound's volume, pan and speed changes are not on the timeline (only
// its start and stop). Rollbacks' depth is the scheduler's
// count of ticks run again (Tick.Resimulated), which a solo session
// leaves at 0.
//
// The game's states are the ecs.States machines only: a game that keeps
// its screen (title, play, pause) in a resource of its own shows it in
// /api/resources, not on the timeline; ecs.Sys.Mark labels its changes
// there.
//
// # Threads
//
// A Replay belongs to one goroutine at a time: the replay's simulation
// owner during the first pass, then the [Server] (its lock). A live
// game's Replay belongs to its follower (framework.InspectLive, on a
// background worker at the lowest priority): the page's requests run on
// the follower's goroutine between its ticks, so they take its time and
// never the game's; before it begins and after it stops they take the
// [Live]'s lock instead.
package inspect
