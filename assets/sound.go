package assets

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/media"
)

// Sound is a handle to a sound in a [Library]: a generation-checked id,
// like [Image]. The zero Sound is never valid. Handles are plain values,
// so a component can hold one (ecs.SoundSource does) and the world hash
// sees plain data where a *audio.Sound would be a pointer. Resolve it with
// [Library.AudioSound] when a sound is played.
type Sound struct{ id, gen uint32 }

// IsZero reports whether h is the zero handle.
func (h Sound) IsZero() bool { return h == Sound{} }

func (h Sound) String() string { return fmt.Sprintf("sound %d gen %d", h.id, h.gen) }

type soundEntry struct {
	name  string
	fsys  fs.FS // nil for sounds added from memory
	sound *audio.Sound
}

// LoadSound reads the WAV, Ogg Vorbis or MP3 file name from fsys, decodes
// it whole (with [audio.LoadSound]: the format is sniffed from the content)
// and keeps it under a new handle. A file that cannot be read or decoded
// fails with a [*media.Error] naming it, which wraps the sentinel the audio
// package found ([media.ErrCorrupt], [media.ErrUnsupported],
// [media.ErrTooLarge], or an error from io/fs such as [fs.ErrNotExist]); a failed
// load leaves the library as it was. Decoding runs outside the library's
// lock, so loading sounds on a worker never holds up the graphics thread.
// Music too long to hold in memory is streamed instead, with
// [audio.Player.OpenStream]. Safe from any goroutine.
func (l *Library) LoadSound(fsys fs.FS, name string) (Sound, error) {
	s, err := audio.LoadSound(fsys, name)
	if err != nil {
		return Sound{}, soundError("load sound", name, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.addSoundLocked(soundEntry{name: name, fsys: fsys, sound: s}), nil
}

// AddSound keeps a sound made in memory (an [audio.Synth], a procedural
// effect) under a new handle; its name labels errors. Safe from any
// goroutine.
func (l *Library) AddSound(s *audio.Sound) (Sound, error) {
	if s == nil {
		return Sound{}, &media.Error{Pkg: "assets", Op: "add sound", Path: "", Err: media.Detail(media.ErrInvalid, "sound is nil")}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.addSoundLocked(soundEntry{name: s.Name(), sound: s}), nil
}

func (l *Library) addSoundLocked(e soundEntry) Sound {
	id, gen := l.sounds.add(e)
	return Sound{id, gen}
}

// AudioSound returns the decoded sound h names, ready for
// [audio.Player.Play]. It fails with [ErrStale] for a released or reloaded
// handle. The sound is immutable, so a voice may go on playing it after
// the handle goes stale. Safe from any goroutine; allocation-free on
// success.
func (l *Library) AudioSound(h Sound) (*audio.Sound, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.sounds.get(h.id, h.gen)
	if e == nil {
		return nil, staleErr("sound", h.id, h.gen, l.sounds.current(h.id))
	}
	return e.sound, nil
}

// SoundName returns the file name (or the in-memory sound's name) h was
// loaded under.
func (l *Library) SoundName(h Sound) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.sounds.get(h.id, h.gen)
	if e == nil {
		return "", staleErr("sound", h.id, h.gen, l.sounds.current(h.id))
	}
	return e.name, nil
}

// ReleaseSound forgets h; its handle and every copy of it go stale. Voices
// already playing it finish normally. Releasing a stale handle is an
// [ErrStale] error and changes nothing. Safe from any goroutine.
func (l *Library) ReleaseSound(h Sound) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sounds.get(h.id, h.gen) == nil {
		return staleErr("sound", h.id, h.gen, l.sounds.current(h.id))
	}
	l.sounds.remove(h.id)
	return nil
}

// ReloadSound reads h's file again from the file system it was loaded from
// and returns a new handle for the new samples; the old handle goes stale
// (voices playing the old samples finish with them). If the file cannot be
// loaded, the old handle stays valid and is returned with the error.
// Sounds added from memory cannot be reloaded.
func (l *Library) ReloadSound(h Sound) (Sound, error) {
	l.mu.Lock()
	e := l.sounds.get(h.id, h.gen)
	if e == nil {
		err := staleErr("sound", h.id, h.gen, l.sounds.current(h.id))
		l.mu.Unlock()
		return h, err
	}
	fsys, name := e.fsys, e.name
	l.mu.Unlock()
	if fsys == nil {
		return h, &media.Error{Pkg: "assets", Op: "reload sound", Path: name, Err: media.Detail(media.ErrInvalid, "sound has no file of its own to reload (added from memory)")}
	}
	s, err := audio.LoadSound(fsys, name)
	if err != nil {
		return h, soundError("reload sound", name, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sounds.get(h.id, h.gen) == nil { // released or reloaded while we decoded
		return h, staleErr("sound", h.id, h.gen, l.sounds.current(h.id))
	}
	gen := l.sounds.replace(h.id, soundEntry{name: name, fsys: fsys, sound: s})
	return Sound{h.id, gen}, nil
}

// SoundCount returns the number of live sounds.
func (l *Library) SoundCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sounds.len()
}

// soundError names the file once: the audio package's *media.Error for it
// becomes this package's, with the same cause and so the same sentinel.
func soundError(op, name string, err error) error {
	var ae *media.Error
	if errors.As(err, &ae) {
		err = ae.Err
	}
	return &media.Error{Pkg: "assets", Op: op, Path: name, Err: err}
}
