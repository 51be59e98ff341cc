//go:build !js

package otoaudio

// awaitReady waits until oto's output is ready, so that the first
// buffer's instant is when output really starts (Open bounds the wait).
func awaitReady(ready chan struct{}) { <-ready }
