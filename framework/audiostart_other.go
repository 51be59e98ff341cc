//go:build !js

package framework

// startAudio opens the sound device at once: a desktop plays sound
// without waiting for the player (audiostart_js.go waits in a page).
// Platform thread, after the game's Setup.
func (s *Session) startAudio() { s.openAudio() }
