package audio

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error this package returns wraps one of them (or an
// error from io/fs such as [fs.ErrNotExist]), so callers branch with
// [errors.Is] and print the error for a human.
var (
	// ErrCorrupt reports data that is not a well-formed WAV, Ogg Vorbis or
	// MP3 file: truncated, damaged or of another format.
	ErrCorrupt = errors.New("audio: corrupt data")
	// ErrUnsupported reports a well-formed file this package cannot play,
	// such as a WAV file with five channels or an unknown sample format.
	ErrUnsupported = errors.New("audio: unsupported format")
	// ErrTooLarge reports a file or a decoded sound beyond the limits
	// ([MaxFileBytes], [MaxSoundFrames]) that keep a damaged or hostile
	// file from taking unbounded memory.
	ErrTooLarge = errors.New("audio: sound too large")
	// ErrInvalid reports a bad argument: a parameter out of range, a
	// stream played twice, a voice or bus that does not exist.
	ErrInvalid = errors.New("audio: invalid argument")
	// ErrQueueFull reports a request refused because the mixer's command
	// queue is full: the mixer has not run for a while (no device, or the
	// device stalled). The request is dropped, never waited for.
	ErrQueueFull = errors.New("audio: command queue full")
)

// Error is a failure to load or decode a named sound. It records what was
// being done (Op), the file name (Path) and the cause (Err), like
// [fs.PathError] and the assets package's Error.
type Error struct {
	Op   string // "load sound", "decode sound", "open stream", "stream"
	Path string // file name as given to the fs.FS, or the sound's name
	Err  error
}

func (e *Error) Error() string {
	return fmt.Sprintf("audio: %s %s: %v", e.Op, e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// detail wraps a sentinel with a description while keeping it matchable.
func detail(sentinel error, format string, args ...any) error {
	return &detailError{sentinel: sentinel, msg: fmt.Sprintf(format, args...)}
}

type detailError struct {
	sentinel error
	msg      string
}

func (e *detailError) Error() string { return e.msg }
func (e *detailError) Unwrap() error { return e.sentinel }
