// Package otoaudio plays an [audio.Mixer] on the system's sound output
// through github.com/ebitengine/oto/v3. It is platform code: on Linux oto
// talks to ALSA through cgo (the libasound2-dev headers at build time, and
// at run time any ALSA device, including PulseAudio's or PipeWire's); on
// Windows to WASAPI and on macOS to Core Audio, both without cgo. Only
// framework and cmd/ import it. The placement below, the statistics and
// [ErrNoDevice] are the same on every system; only Linux has been run
// here.
//
// [Open] starts the output and fixes the mixer's timeline: the instant of
// the first buffer oto asks for is the timeline's origin, frame 0. Each
// later read compares the frames rendered with the frames the clock says
// are due; a device that played past the mixer (an underrun: the process
// stalled, the disk was slow) moves the timeline on with
// [audio.Mixer.Skip], so sounds placed afterwards still land where their
// instants say. A device's own clock runs a little fast or slow against
// the monotonic clock (tens to hundreds of parts per million: at 100 ppm
// 6 ms a minute); the device follows it by holding the lead's minimum over
// each second within 2 ms of where it settled after warm-up, moving the
// origin with [audio.Mixer.ShiftOrigin] (counted in the mixer's Realigns),
// so hours into a session sounds still land on their instants.
// [Device.Stats] shows how far ahead of the clock the mixer runs, what oto
// still holds, and the underruns.
//
//	m, _ := audio.NewMixer(audio.DefaultOptions())
//	dev, err := otoaudio.Open(m, otoaudio.Options{})
//	if err != nil { // errors.Is(err, otoaudio.ErrNoDevice)
//		log.Printf("audio off: %v", err) // the game runs silently
//	}
//	defer dev.Close()
//
// A failure to open is a [*DeviceError]: its message is one short line
// (ALSA's own error names every device it tried, hundreds of characters,
// which the message sums up), and its System field keeps the library's
// words whole; [Reason] gives the short part for a program's own line.
//
// oto allows one output per process for the life of the process; Close
// suspends it and a later Open (with a new mixer at the same rate) resumes
// it. Close waits at most 2 s for the system to take oto's last write: a
// device that stopped taking audio (a wedged sound server) cannot hang the
// game's exit; the output is then given up and a later Open says so.
package otoaudio
