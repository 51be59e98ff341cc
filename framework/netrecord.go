package framework

import (
	"errors"
	"fmt"
	"io"

	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
)

// A networked match records its confirmed timeline, not this machine's
// devices: rollback.Recorder writes it and rollback.Playback replays it
// (rollback/record.go), both reached through the game's networks
// (netplay.Driver). The framework keeps the file: its path, opening
// and closing, and the messages.

// matchRecording is a networked session's recording: opened once the
// game's Setup has declared its seats (startNet), closed with the
// session's outcome.
type matchRecording struct {
	path string
	also io.Writer // RunOptions.RecordTo: the inspector of a live match
	rec  *sessionRecording
}

// RecordMatch makes a session that plays a match ([Session.UseMatch])
// record the match's confirmed timeline to path, as --record does in a
// match: a tick per confirmed tick with every player's confirmed input,
// the confirmed world hashes at net.hash_every and the match's pacing
// (see recording.Net). The file is created once the game's Setup has
// declared its seats, before the first tick; a path that cannot be
// created fails the session there. Call it before the session runs, and
// [Session.FinishMatchRecording] after. Replay the file with [Replay].
func (s *Session) RecordMatch(path string) error {
	return s.recordMatchTo(path, nil)
}

// recordMatchTo is RecordMatch to the file at path, to also, or to both
// (RunOptions.Record and RecordTo).
func (s *Session) recordMatchTo(path string, also io.Writer) error {
	if s.match == nil {
		return errors.New("framework: RecordMatch needs a match: call UseMatch first")
	}
	s.matchRec = &matchRecording{path: path, also: also}
	return nil
}

// FinishMatchRecording ends the recording [Session.RecordMatch] began
// with the session's error (nil for a clean stop) and reports any
// problem keeping it; nil without one. Call it after the session ran.
func (s *Session) FinishMatchRecording(sessionErr error) error {
	if s.matchRec == nil {
		return nil
	}
	o, msg := outcome(nil, sessionErr, nil)
	return s.matchRec.close(o, msg)
}

// startMatchRecording opens the recording of the match once startNet has
// built it (a player's session, or a follower's), so that the header
// holds the seats Setup declared. Nothing to do without --record.
func (s *Session) startMatchRecording() error {
	m := s.matchRec
	if m == nil || s.play == nil {
		return nil
	}
	header := s.play.RecordingHeader(RecordingHeader(s.game, s.cfg, s.rt.Options().Mode))
	rec, err := openRecording(m.path, m.also, header)
	if err != nil {
		return err
	}
	rec.w.SetClock(s.rt.Options().Clock)
	m.rec = rec
	s.play.Record(rec.w)
	return nil
}

// close ends the recording; nothing when the match never started.
func (m *matchRecording) close(o recording.Outcome, msg string) error {
	if m.rec == nil {
		return nil
	}
	return m.rec.close(o, msg)
}

// recordConfirmed writes what the update settled (netplay.Play.RecordTick).
// Simulation owner, after the update ran the match.
func (s *Session) recordConfirmed(t *runtime.TickContext) error {
	if m := s.matchRec; m != nil && m.rec != nil {
		if err := s.play.RecordTick(t); err != nil {
			return fmt.Errorf("framework: --record: %w", err)
		}
	}
	return nil
}

// useNetReplay makes sess replay the match recorded in r once the game's
// Setup has declared its seats (startNet: rollback.Playback), and keeps
// every checkpoint the runtime checks for the confirmed line.
func (s *Session) useNetReplay(path string, r *recording.Reader, rtOpts *runtime.Options) error {
	if s.game.Net == nil {
		return fmt.Errorf("framework: --replay %s: the recording is of a %d-player networked match, and this game declares no players (Game.Net)", path, r.Header().Net.Players)
	}
	if _, err := s.game.Net.driver(); err != nil {
		return fmt.Errorf("framework: --replay %s: the recording is of a %d-player networked match, and %w", path, r.Header().Net.Players, err)
	}
	s.replayFrom, s.replayPath = r, path
	hash := rtOpts.Record.Hash
	rtOpts.Record.Hash = func(c *recording.Checkpoint) error {
		if err := hash(c); err != nil {
			return err
		}
		s.replayNet.Checked(c)
		return nil
	}
	return nil
}
