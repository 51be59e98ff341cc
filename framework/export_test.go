package framework

import (
	"io"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/timing"
)

// SetOpenDevice puts open in the place of the audio device for a test and
// returns the function that puts the real one back.
func SetOpenDevice(open func(m *audio.Mixer, clock timing.Clock) (io.Closer, error)) (restore func()) {
	old := openDevice
	openDevice = open
	return func() { openDevice = old }
}

// RecordingFile is what SetCreateRecording's function returns.
type RecordingFile = recordingFile

// SetCreateRecording puts create in the place of the recording file's
// creation for a test and returns the function that puts the real one
// back.
func SetCreateRecording(create func(path string) (RecordingFile, error)) (restore func()) {
	old := createRecording
	createRecording = create
	return func() { createRecording = old }
}

// SamePackage is samePackage, for a table test.
var SamePackage = samePackage

// ConfigHash is the configuration hash of a match's identity.
var ConfigHash = configHash

// NetEvent reports a match's connection event on w, as a networked
// session does on RunOptions.Stderr.
func NetEvent(w io.Writer, ev netplay.Event) error {
	return (&netRun{log: w, clock: timing.SystemClock{}, patience: time.Minute}).event(ev)
}

// NetPatience returns a match's connection events and its check, each
// update, of how long a disconnected peer has been away.
func NetPatience(w io.Writer, clock timing.Clock, patience time.Duration) (event func(netplay.Event) error, waited func() error) {
	r := &netRun{log: w, clock: clock, patience: patience}
	return r.event, r.waited
}
