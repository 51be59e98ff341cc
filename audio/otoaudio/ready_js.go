//go:build js

package otoaudio

// awaitReady returns at once in a browser: WebAudio starts only after the
// page's first user gesture (a key, a click, a touch), which oto's WebAudio
// backend waits for itself. Until then the device runs silently, and the
// drift correction realigns the mixer's timeline when output starts.
func awaitReady(chan struct{}) {}
