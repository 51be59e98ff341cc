//go:build js

package framework

import (
	"sync/atomic"
	"syscall/js"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// gestureEvents are the page's inputs that count as the player's first
// gesture, the one after which a browser lets a page start sound.
var gestureEvents = []string{"keydown", "pointerdown", "touchstart"}

// startAudio opens the sound device at the page's first input (a key, a
// pointer, a touch) rather than before the first present: a browser
// starts an AudioContext only after a gesture anyway, and making the
// first one held the page's start back by 0.5 to 1.3 s. The gesture's
// listener only sets a flag; the platform thread opens the device at its
// next cycle (a Maintenance service), as it would have at start.
//
// Sounds the game plays before then wait in the mixer's queue (its
// Options.QueueSize commands; beyond it Play reports audio.ErrQueueFull)
// and are placed when the device asks for its first buffer by the
// mixer's own rule: a sound already later than the mixer's tolerance is
// dropped (Stats.Dropped), an Essential one plays at once. Platform
// thread, after the game's Setup.
func (s *Session) startAudio() {
	doc := js.Global().Get("document")
	if s.device == nil || s.rt == nil || !doc.Truthy() {
		// No page to wait on (Node.js) or no runtime to run the check.
		s.openAudio()
		return
	}
	var gestured atomic.Bool
	listener := js.FuncOf(func(js.Value, []js.Value) any {
		gestured.Store(true)
		return nil
	})
	opts := map[string]any{"capture": true, "passive": true}
	for _, e := range gestureEvents {
		doc.Call("addEventListener", e, listener, opts)
	}
	var wait *runtime.ServiceAttachment
	wait, err := s.rt.Services().Attach(runtime.Maintenance, func(timing.Instant) error {
		if !gestured.Load() {
			return nil
		}
		wait.Detach()
		for _, e := range gestureEvents {
			doc.Call("removeEventListener", e, listener, opts)
		}
		listener.Release()
		s.openAudio()
		return nil
	})
	if err != nil {
		for _, e := range gestureEvents {
			doc.Call("removeEventListener", e, listener, opts)
		}
		listener.Release()
		s.openAudio()
	}
}
