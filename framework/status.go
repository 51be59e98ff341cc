package framework

// Exit statuses of [Main] and [MainStatus]. A script tells how a run ended
// from the status alone; the last line on stdout or stderr says it in words.
// The README's "Exit statuses" table lists the same values.
//
// 0, 1 and 2 keep their usual meanings. A replay ends with 0 when every
// recorded tick matched and the recording says how its session ended, or
// with one of the replay statuses. A networked match ends with 0 when the
// requested ticks were confirmed, or with one of the match statuses.
const (
	StatusOK     = 0 // a clean stop, a finished match, a replay that matched to its end
	StatusFailed = 1 // any other failure; the message says what
	StatusUsage  = 2 // bad flags or arguments

	// Replays (--replay).
	StatusReplayCut      = 3 // every recorded tick matched, but the recording stops without an end marker: its session was killed
	StatusReplayDamaged  = 4 // the recording cannot be read past some point: bytes damaged or missing mid-record
	StatusReplayDiverged = 5 // the replay reached a tick whose world hash differs from the recorded one

	// Networked matches (--host, --join, --spectate).
	StatusDesynced  = 10 // the peers' confirmed world hashes differ
	StatusAbandoned = 11 // a peer stopped answering and was not waited for any longer
	StatusRefused   = 12 // the host refused this peer (other game, configuration or build; full match; bad token)
	StatusHostGone  = 13 // the host left or died mid-match and cannot come back
)
