// Package audio plays sounds and music on the simulation's timeline: a
// sound requested by an update starts at the point of the device's output
// that matches the real-time span of that update, plus a fixed output
// latency, so sounds line up with the pictures however late or bunched the
// updates ran. It is the pure Go core: decoding glue, the mixer, voices,
// buses, placement and statistics. The device lives in the platform
// package audio/otoaudio.
//
// # Two sides
//
// A [Mixer] belongs to the device: one goroutine calls [Mixer.Start] once
// with the instant matched to frame 0, then [Mixer.Render] for every
// buffer (and [Mixer.Skip] when the device lost time). The simulation
// holds the mixer's [Player], whose requests travel through a bounded
// lock-free queue: the device never waits for the simulation or for a
// lock it holds, and the simulation never waits for the device (a full
// queue refuses a request with [ErrQueueFull]). Rendering allocates
// nothing.
//
// # Placement
//
// A request carries an [At]: the span [Start, End) of the update that
// made it (from timing.Update, see [InUpdate]) and an offset from Start.
// [Timeline.Place] maps it to the frame
//
//	floor((Start + Offset - origin) × rate / 1e9) + latency frames
//
// exactly, in integer arithmetic. In a catch-up burst the updates run back
// to back, but their spans are a step apart, and so are their sounds.
//
// When the mixer sees a request whose frame has already been played, the
// policy answers "sound during catch-up": a start at most
// Options.Tolerance late plays at once; a later one is dropped unless the
// request is [Params].Essential, which plays at once whatever its
// lateness. Quiet updates (timing.Update.Quiet) request sounds like any
// other: what they started is placed where it belongs, and whatever is
// still in the future when the burst ends is heard. [Stats] counts every
// request as Placed, Late or Dropped (or Refused by the voice limit).
//
// # Voices and buses
//
// A voice plays a [Sound] (decoded whole) or a [Stream] (decoded as it
// plays) with a volume, a balance pan, a speed (sounds only; linear
// interpolation), looping, a fade-in and a timed stop with a fade-out.
// Voices play on the Effects, Music or UI bus; each bus, and Master, has a
// volume (with ramps) and a mute. Options.MaxVoices limits sound voices:
// a new sound takes the slot of the lowest-priority voice, among equals a
// one-shot before a loop, among those the one that started first; when
// every busy voice has a higher [Params].Priority the new sound is refused.
// A stolen voice fades out over 2 ms in a spare slot rather than clicking.
// Streams have their own MaxStreams slots and are never stolen.
//
// # Files
//
// [LoadSound] and [DecodeSound] decode WAV (a small reader of its own),
// Ogg Vorbis (github.com/jfreymuth/oggvorbis) and MP3
// (github.com/hajimehoshi/go-mp3), sniffed from the content.
// [Player.OpenStream] streams the same formats from any fs.FS; a pump
// goroutine ([Mixer.Pump], run by the device) decodes ahead so the mixer
// only copies. Damaged files fail with a [*media.Error] naming the file; header
// counts are checked against the file before anything is allocated, and
// decoded sounds are capped at [MaxSoundFrames]. [Synth] makes sounds in
// code, so tests and demos need no binary asset.
//
//	m, _ := audio.NewMixer(audio.DefaultOptions())
//	jump, _ := audio.LoadSound(gameFS, "sfx/jump.ogg")
//	// in an update:
//	m.Player().Play(jump, audio.InUpdate(tick.Update), audio.DefaultParams())
package audio
