package demo

import (
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/timing"
)

// soundRate is the rate of the generated sounds when there is no mixer to
// ask (a silent session): what audio.DefaultOptions plays at.
const soundRate = 48000

// Sound levels of the demo's voices, linear gains.
const (
	dashVolume  = 0.5
	fireVolume  = 0.35
	musicVolume = 0.45
)

// musicLoop is the length of the generated music track, played in a loop.
const musicLoop = 4 * time.Second

// gameSounds are the demo's sounds, generated in code (no binary asset)
// and kept in the asset library, so ECS systems name them by handle.
type gameSounds struct {
	dash, fire, music assets.Sound
}

// synthesised holds the generated sounds by rate: a Sound is immutable, so
// every session of the process (tests run dozens) shares one set instead
// of synthesising four seconds of music each time.
var synthesised struct {
	sync.Mutex
	byRate map[int]*[3]*audio.Sound
}

// makeSounds adds the dash whoosh, the shot blip and the music loop,
// generated at rate, to lib.
func makeSounds(lib *assets.Library, rate int) (gameSounds, error) {
	var s gameSounds
	set, err := synthesise(rate)
	if err != nil {
		return s, err
	}
	if s.dash, err = lib.AddSound(set[0]); err != nil {
		return s, err
	}
	if s.fire, err = lib.AddSound(set[1]); err != nil {
		return s, err
	}
	s.music, err = lib.AddSound(set[2])
	return s, err
}

// synthesise returns the dash, the shot and the music at rate, made on the
// first call for that rate.
func synthesise(rate int) (*[3]*audio.Sound, error) {
	synthesised.Lock()
	defer synthesised.Unlock()
	if set := synthesised.byRate[rate]; set != nil {
		return set, nil
	}
	dash, err := audio.Synth{Wave: audio.Saw, Freq: 180, EndFreq: 720, Amplitude: 0.4, Duration: 180 * time.Millisecond,
		Rate: rate, Attack: 4 * time.Millisecond, Release: 140 * time.Millisecond}.Sound("dash")
	if err != nil {
		return nil, err
	}
	fire, err := audio.Synth{Wave: audio.Square, Freq: 1400, EndFreq: 350, Amplitude: 0.25, Duration: 70 * time.Millisecond,
		Rate: rate, Attack: 2 * time.Millisecond, Release: 50 * time.Millisecond}.Sound("fire")
	if err != nil {
		return nil, err
	}
	music, err := musicTrack(rate)
	if err != nil {
		return nil, err
	}
	if synthesised.byRate == nil {
		synthesised.byRate = map[int]*[3]*audio.Sound{}
	}
	set := &[3]*audio.Sound{dash, fire, music}
	synthesised.byRate[rate] = set
	return set, nil
}

// musicTrack generates musicLoop of music: an arpeggio of eighth notes at
// 120 beats per minute over four chords, with a soft bass note per chord.
// Every note's envelope ends at zero within the loop, so it repeats
// without a click.
func musicTrack(rate int) (*audio.Sound, error) {
	const note = 250 * time.Millisecond
	frames := int(int64(musicLoop) * int64(rate) / int64(time.Second))
	data := make([]float32, frames)
	// A minor, F major, C major, G major; each chord one second.
	chords := [4][4]float64{
		{220.00, 261.63, 329.63, 440.00},
		{174.61, 220.00, 261.63, 349.23},
		{130.81, 196.00, 261.63, 329.63},
		{196.00, 246.94, 293.66, 392.00},
	}
	add := func(at time.Duration, s audio.Synth) error {
		snd, err := s.Sound("note")
		if err != nil {
			return err
		}
		off := int(int64(at) * int64(rate) / int64(time.Second))
		for i, v := range snd.Samples() {
			if off+i < len(data) {
				data[off+i] += v
			}
		}
		return nil
	}
	for c, chord := range chords {
		start := time.Duration(c) * time.Second
		if err := add(start, audio.Synth{Wave: audio.Sine, Freq: chord[0] / 2, Amplitude: 0.22, Duration: time.Second,
			Rate: rate, Attack: 20 * time.Millisecond, Release: 600 * time.Millisecond}); err != nil {
			return nil, err
		}
		for n := range 4 {
			if err := add(start+time.Duration(n)*note, audio.Synth{Wave: audio.Triangle, Freq: chord[n] * 2, Amplitude: 0.16, Duration: note,
				Rate: rate, Attack: 5 * time.Millisecond, Release: 200 * time.Millisecond}); err != nil {
				return nil, err
			}
		}
	}
	return audio.NewSound("music", rate, 1, data)
}

// soundState is the demo's side of the session's sound: the ECS audio
// resource, the session's output, and the panel's settings. Simulation
// owner, after Setup.
type soundState struct {
	res *ecs.Audio
	out *framework.Sound // the session's output while it plays, or nil
	// off is why the session is silent, "" when sound plays.
	off string
	// latency is the mixer's output latency.
	latency time.Duration
	volume  float32 // master bus volume
	music   bool    // the music bus is not muted
}

// setupSound connects the demo to the session's audio: the framework's
// Audio resource (framework.Run adds one, with the device's player or a
// silent one; a harness without sound adds none, and the demo then runs
// silently) and its output, Setup.Sound. Platform thread, in Setup.
func (g *Game) setupSound(s *framework.Setup) error {
	st := &g.sound
	st.res = ecs.AddAudio(g.app, nil) // the session's own when it has one
	st.latency = s.Config.AudioOptions().Latency
	st.volume, st.music = float32(s.Config.Audio.Master), true
	switch {
	case s.Sound.Playing():
		st.out = s.Sound
		st.latency = s.Sound.Stats().Latency
	case !s.Config.Audio.Enabled:
		st.off = "audio.enabled = false"
	default:
		st.off = s.Sound.Off()
	}
	rate := st.res.Player.Rate()
	if rate == 0 {
		rate = soundRate
	}
	var err error
	g.sounds, err = makeSounds(g.lib, rate)
	return err
}

// spawnMusic queues the music: a looping, non-positional source on the
// music bus. The component is game state like any other (it is in the
// world hash, so a replay starts the same music on the same tick).
func (g *Game) spawnMusic(ctx *ecs.Sys) {
	p := audio.DefaultParams()
	p.Bus, p.Volume, p.Loop = audio.Music, musicVolume, true
	e := ctx.Commands.Spawn()
	ecs.With(e, ecs.SoundSource{Sound: g.sounds.music, Params: p})
}

// playEffect plays one of the demo's effects from a simulation system, on
// the span of the tick (ecs.Sys.PlaySound), panned by where it
// happens across the arena. A sound never stops the game: a failed
// request is counted by the Audio resource and shown on the overlay.
func (g *Game) playEffect(ctx *ecs.Sys, s assets.Sound, volume float32, x, width float32) {
	p := audio.DefaultParams()
	p.Volume = volume
	if width > 0 {
		p.Pan = clamp(0.7*(2*x/width-1), -1, 1)
	}
	_, _ = ctx.PlaySound(s, p)
}

// SoundVolume returns the master volume the panel set. Simulation owner.
func (g *Game) SoundVolume() float32 { return g.sound.volume }

// SetSoundVolume ramps the master bus to v over 50 ms. A silent session
// keeps the setting for nothing. Simulation owner.
func (g *Game) SetSoundVolume(v float32) error {
	var p *audio.Player
	if g.sound.res != nil {
		p = g.sound.res.Player
	}
	if err := p.SetBusVolume(audio.Master, v, 50*time.Millisecond); err != nil {
		return err
	}
	g.sound.volume = v
	return nil
}

// Music reports whether the music bus plays. Simulation owner.
func (g *Game) Music() bool { return g.sound.music }

// SetMusic mutes (false) or unmutes the music bus. Simulation owner.
func (g *Game) SetMusic(on bool) error {
	var p *audio.Player
	if g.sound.res != nil {
		p = g.sound.res.Player
	}
	if err := p.SetBusMute(audio.Music, !on); err != nil {
		return err
	}
	g.sound.music = on
	return nil
}

// SoundOff returns why the session is silent, "" when sound plays.
// Simulation owner.
func (g *Game) SoundOff() string { return g.sound.off }

// AudioStats returns the ECS audio resource's counters (requests, sources,
// errors). Simulation owner (or after the session).
func (g *Game) AudioStats() ecs.AudioStats {
	if g.sound.res == nil {
		return ecs.AudioStats{}
	}
	return g.sound.res.Stats()
}

// audioLine is what the overlay's audio line shows.
type audioLine struct {
	// Off is why the session is silent, "" when sound plays.
	Off     string
	Latency time.Duration
	ECS     ecs.AudioStats
	// Stats are the mixer's counters while sound plays.
	Stats audio.Stats
	// Device is set when an output device reports how far ahead of the
	// clock the mixer renders (Lead) and what it still holds (Queued).
	Device       bool
	Lead, Queued time.Duration
}

// noteAudio fills the overlay's audio line from the session's sound.
// Simulation owner.
func (st *soundState) noteAudio(l *audioLine) {
	*l = audioLine{Off: st.off, Latency: st.latency}
	if st.res != nil {
		l.ECS = st.res.Stats()
	}
	if st.out != nil {
		ss := st.out.Stats()
		l.Stats = ss.Mixer
		l.Device, l.Lead, l.Queued = ss.HasDevice, ss.Device.Lead, ss.Device.Queued
	}
}

// maxOffReason is the most of a silent session's reason the overlay shows.
const maxOffReason = 72

// appendAudioLine formats the overlay's audio line.
func appendAudioLine(dst []byte, l *audioLine) []byte {
	dst = append(dst, "audio: "...)
	if l.Off != "" {
		dst = append(dst, "off ("...)
		// A backend's reason can list every device it tried; the whole
		// of it is on stderr, the overlay keeps one line.
		if off := l.Off; len(off) > maxOffReason {
			dst = append(dst, off[:maxOffReason]...)
			dst = append(dst, "..."...)
		} else {
			dst = append(dst, off...)
		}
		dst = append(dst, "), requests "...)
		dst = strconv.AppendUint(dst, l.ECS.Played, 10)
		return append(dst, " (silent)"...)
	}
	dst = append(dst, "latency "...)
	dst = strconv.AppendInt(dst, int64(l.Latency/time.Millisecond), 10)
	dst = append(dst, " ms"...)
	s := &l.Stats
	dst = append(dst, ", voices "...)
	dst = strconv.AppendInt(dst, int64(s.Voices), 10)
	dst = append(dst, " (peak "...)
	dst = strconv.AppendInt(dst, int64(s.PeakVoices), 10)
	dst = append(dst, "), placed "...)
	dst = strconv.AppendUint(dst, s.Placed, 10)
	dst = append(dst, ", late "...)
	dst = strconv.AppendUint(dst, s.Late, 10)
	dst = append(dst, ", dropped "...)
	dst = strconv.AppendUint(dst, s.Dropped, 10)
	dst = append(dst, ", underruns "...)
	dst = strconv.AppendUint(dst, s.Underruns, 10)
	if l.Device {
		dst = append(dst, ", device ahead "...)
		dst = strconv.AppendInt(dst, int64(l.Lead/time.Millisecond), 10)
		dst = append(dst, " ms (queued "...)
		dst = strconv.AppendInt(dst, int64(l.Queued/time.Millisecond), 10)
		dst = append(dst, " ms)"...)
	}
	if l.ECS.Errors > 0 {
		dst = append(dst, ", errors "...)
		dst = strconv.AppendUint(dst, l.ECS.Errors, 10)
	}
	return dst
}

// Sounder is implemented by controls that change the sound while the
// session runs (the demo's Game). Without it the panel's sound rows say
// the setting needs a restart.
type Sounder interface {
	SoundVolume() float32
	SetSoundVolume(v float32) error
	Music() bool
	SetMusic(on bool) error
	// SoundOff returns why the session is silent, "" when sound plays.
	SoundOff() string
}

var volumes = []float32{0, 0.25, 0.5, 0.75, 1, 1.5, 2}

// nextVolume is the panel's next volume from cur in direction dir: the
// neighbouring entry of volumes, also from a configured volume between
// two of them (0.8 steps to 1 or 0.75).
func nextVolume(cur float32, dir int) float32 {
	i, found := slices.BinarySearch(volumes, cur)
	if found || dir < 0 {
		i += dir
	}
	return volumes[min(max(i, 0), len(volumes)-1)]
}

// soundRows are the panel's sound rows: the master volume and the music.
var soundRows = []setting{
	{
		name:   "sound volume",
		active: always,
		value: func(p *Panel, _ *timing.Options) string {
			s, ok := p.ctl.(Sounder)
			if !ok {
				return "as configured"
			}
			v := strconv.Itoa(int(s.SoundVolume()*100+0.5)) + "%"
			if off := s.SoundOff(); off != "" {
				v += " (silent)"
			}
			return v
		},
		change: func(p *Panel, _ *timing.Options, dir int) (bool, error) {
			s, ok := p.ctl.(Sounder)
			if !ok {
				return false, errors.New("this runtime cannot change the volume while running; restart with --set audio.master_volume=0.5")
			}
			return false, s.SetSoundVolume(nextVolume(s.SoundVolume(), dir))
		},
	},
	{
		name:   "music",
		active: always,
		value: func(p *Panel, _ *timing.Options) string {
			s, ok := p.ctl.(Sounder)
			if !ok {
				return "as configured"
			}
			return onOff(s.Music())
		},
		change: func(p *Panel, _ *timing.Options, dir int) (bool, error) {
			s, ok := p.ctl.(Sounder)
			if !ok {
				return false, errors.New("this runtime cannot mute the music while running; restart with --set audio.music_volume=0")
			}
			return false, s.SetMusic(!s.Music())
		},
	},
}
