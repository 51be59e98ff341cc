package framework

import (
	"io"

	"github.com/metronome-go/metronome/audio"
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
