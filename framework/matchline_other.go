//go:build !js

package framework

import "github.com/metronome-go/metronome/rollback"

// showMatchLine does nothing on the desktop, where the match's messages
// are the terminal's lines already.
func showMatchLine(rollback.Event) {}
