package framework

import (
	"errors"

	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
)

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

// ReplayStatus is the exit status of a replay ([Replay]) that ended with
// err: [StatusOK] for nil, [StatusReplayDiverged] for a
// [*runtime.DivergenceError], [StatusReplayDamaged] for a recording that
// is corrupt ([recording.ErrCorrupt]), [StatusReplayCut] for one that
// stops without its end marker ([recording.ErrIncomplete]: every tick
// before the cut replayed and matched), and [StatusFailed] for anything
// else (another game's recording, a configuration that no longer
// validates, a stall).
func ReplayStatus(err error) int {
	var div *runtime.DivergenceError
	switch {
	case err == nil:
		return StatusOK
	case errors.As(err, &div):
		return StatusReplayDiverged
	case errors.Is(err, recording.ErrCorrupt):
		return StatusReplayDamaged
	case errors.Is(err, recording.ErrIncomplete):
		return StatusReplayCut
	}
	return StatusFailed
}

// exitStatusHelp ends --help: the statuses above, in words.
const exitStatusHelp = `
Exit statuses:
  0   a clean stop, a finished match, a replay that matched to its end
  1   any other failure; the message says what
  2   bad flags or arguments
  3   --replay: every recorded tick matched, but the recording stops without an end marker (its session was killed)
  4   --replay: the recording is damaged: it cannot be read past some point
  5   --replay: the replay reached a tick whose world hash differs from the recorded one
  10  a networked match whose peers' confirmed world hashes differ
  11  a networked match where a peer stopped answering and was not waited for any longer
  12  a networked match whose host refused this peer (other game, configuration or build; full match; bad token)
  13  a networked match whose host left or died mid-match and cannot come back
`
