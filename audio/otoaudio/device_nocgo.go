//go:build linux && !cgo

package otoaudio

import "github.com/metronome-go/metronome/audio"

// Device stands in for the oto device in a Linux build without cgo
// (CGO_ENABLED=0), where oto, which reaches ALSA through cgo, cannot be
// built: such a build has no audio device, and [Open] says so.
type Device struct{}

// Open validates o and fails with an error wrapping ErrNoDevice: a Linux
// build without cgo has no audio output. A game runs silently on it (a
// dedicated host needs none).
func Open(m *audio.Mixer, o Options) (*Device, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	return nil, noDeviceBecause("this build has no sound output (built with CGO_ENABLED=0; oto needs cgo for ALSA on Linux)")
}

// Close does nothing: no Device opens.
func (d *Device) Close() error { return nil }

// Err returns nil: no Device opens.
func (d *Device) Err() error { return nil }

// Stats returns zero counters: no Device opens.
func (d *Device) Stats() Stats { return Stats{} }
