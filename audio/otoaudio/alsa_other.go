//go:build !linux

package otoaudio

// silenceLibrary has nothing to silence where oto does not use alsa-lib.
func silenceLibrary() {}
