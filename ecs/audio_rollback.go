package ecs

import (
	"time"

	"github.com/metronome-go/metronome/audio"
)

// DefaultRollbackFade is how long a sound that a rolled-back tick started,
// and that the ticks run again did not make, fades out.
const DefaultRollbackFade = 30 * time.Millisecond

// playLogSize bounds the requests remembered for matching: a rollback goes
// back at most 64 ticks, and a few requests per tick is plenty.
const playLogSize = 256

// playLog remembers the [Sys.Play] requests of recent ticks so that a
// tick run again after a rollback does not play its sounds twice: a
// request is the same when it has the same tick, sound and rank among that
// tick's requests of that sound (the second shot of tick 80 is the second
// shot of tick 80 however often it runs).
type playLog struct {
	entries  [playLogSize]playEntry
	next     int
	pass     uint32 // the current run; entries made or matched in it carry it
	from     uint64 // first tick run again
	rollback bool
}

type playEntry struct {
	tick  uint64
	sound *audio.Sound
	voice audio.Voice
	pass  uint32
	used  bool
}

// rank returns how many requests of s in tick the current pass made.
func (l *playLog) rank(tick uint64, s *audio.Sound, pass uint32) int {
	n := 0
	for i := range l.entries {
		e := &l.entries[i]
		if e.used && e.tick == tick && e.sound == s && e.pass == pass {
			n++
		}
	}
	return n
}

// match finds, while a rollback runs ticks again, the voice the first run
// of this request started.
func (l *playLog) match(tick uint64, s *audio.Sound) (audio.Voice, bool) {
	if !l.rollback || tick < l.from {
		return audio.Voice{}, false
	}
	want := l.rank(tick, s, l.pass)
	seen := 0
	for i := range l.entries {
		e := &l.entries[i]
		if !e.used || e.tick != tick || e.sound != s || e.pass == l.pass {
			continue
		}
		if seen == want {
			e.pass = l.pass
			return e.voice, true
		}
		seen++
	}
	return audio.Voice{}, false
}

func (l *playLog) record(tick uint64, s *audio.Sound, v audio.Voice) {
	l.entries[l.next] = playEntry{tick: tick, sound: s, voice: v, pass: l.pass, used: true}
	l.next = (l.next + 1) % playLogSize
}

// BeginRollback says that the ticks from tick on are about to run again
// after a restore: until [Audio.EndRollback], a sound request of one of
// them that its first run made too (same tick, same sound, same rank
// among that tick's requests of it) returns the voice already playing
// instead of playing it twice. The rollback session calls it; a game
// does not.
func (a *Audio) BeginRollback(tick uint64) {
	a.replay.pass++
	a.replay.from, a.replay.rollback = tick, true
}

// EndRollback ends what [Audio.BeginRollback] began: every voice that a
// rolled-back tick started and that the ticks run again did not request
// (a sound of a prediction the confirmed inputs did not bear out) is
// stopped at at, fading out over fade (0 means [DefaultRollbackFade]).
//
// The voices of [SoundSource] components are settled on the state the
// last tick run left (the ticks run again start and stop none): a source
// that has its voice keeps it, so a loop both runs play goes on
// unbroken; a voice whose source is gone stops at at with fade; and a
// source with no voice yet (one the rolled-back ticks had stopped, or
// one they did not start) starts at at.
func (a *Audio) EndRollback(at audio.At, fade time.Duration) {
	l := &a.replay
	if !l.rollback {
		return
	}
	if fade <= 0 {
		fade = DefaultRollbackFade
	}
	a.settleSources(at, fade)
	for i := range l.entries {
		e := &l.entries[i]
		if !e.used || e.tick < l.from || e.pass == l.pass {
			continue
		}
		e.used = false
		a.stats.Unmade++
		if a.Player != nil && !e.voice.IsZero() {
			if err := a.Player.Stop(e.voice, at, fade); err != nil {
				a.fail(err)
			}
		}
	}
	l.rollback = false
	l.pass++
}
