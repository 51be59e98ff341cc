package recording

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// Sentinel errors. Every error of this package wraps one of them (or the
// error of the underlying reader or writer), so callers branch with
// [errors.Is] and print the error for a human.
var (
	// ErrIncomplete reports that the data ends before a complete chunk:
	// a recording still being written (call [Reader.Next] again later)
	// or one whose writer died (a crash loses its last chunk).
	ErrIncomplete = errors.New("recording: incomplete")
	// ErrCorrupt reports data that cannot come from a writer: a checksum
	// mismatch followed by more data, a bad varint, a value out of range.
	ErrCorrupt = errors.New("recording: corrupt data")
	// ErrNotRecording reports data that does not start with the magic
	// number.
	ErrNotRecording = errors.New("recording: not a Metronome recording")
	// ErrVersion reports a recording in a format version this build does
	// not read.
	ErrVersion = errors.New("recording: unsupported format version")
	// ErrInvalid reports a tick, checkpoint or header the format cannot
	// hold, given to a [Writer].
	ErrInvalid = errors.New("recording: invalid value")
	// ErrBehind reports that the disk fell so far behind that the writer
	// stopped recording rather than block the simulation or grow without
	// bound.
	ErrBehind = errors.New("recording: the disk is too slow")
	// ErrClosed reports a call on a closed [Writer].
	ErrClosed = errors.New("recording: writer closed")
)

// Error is a problem with one recording: the file's name, where in it and
// the cause, like [io/fs.PathError].
type Error struct {
	// File is the name given to [NewReader] or [NewWriter].
	File string
	// Offset is the byte offset in the file of the chunk or field at
	// fault, or -1 when no byte is (a value refused by a Writer).
	Offset int64
	// Ticks is the number of complete ticks before the problem, or -1
	// when the problem is outside the tick stream (the header).
	Ticks int64
	// Err is the cause; it wraps a sentinel of this package or an I/O
	// error.
	Err error
}

// Error reads "recording: game.rec: byte 1234, after 56 ticks: ...";
// the parts that do not apply are left out.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("recording: ")
	b.WriteString(e.File)
	sep := ": "
	if e.Offset >= 0 {
		b.WriteString(sep)
		b.WriteString("byte ")
		b.WriteString(strconv.FormatInt(e.Offset, 10))
		sep = ", "
	}
	switch {
	case e.Ticks == 0:
		b.WriteString(sep)
		b.WriteString("before the first tick")
	case e.Ticks == 1:
		b.WriteString(sep)
		b.WriteString("after 1 tick")
	case e.Ticks > 1:
		b.WriteString(sep)
		b.WriteString("after ")
		b.WriteString(strconv.FormatInt(e.Ticks, 10))
		b.WriteString(" ticks")
	}
	b.WriteString(": ")
	// The file is named once: an *fs.PathError of the same file says
	// only what failed ("open: no such file or directory").
	if pe, ok := e.Err.(*fs.PathError); ok && pe.Path == e.File {
		b.WriteString(pe.Op)
		b.WriteString(": ")
		b.WriteString(pe.Err.Error())
		return b.String()
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// detailed is a description that matches its sentinel with errors.Is but
// prints only the description, so messages do not repeat "recording:".
type detailed struct {
	sentinel error
	msg      string
}

func (d *detailed) Error() string { return d.msg }
func (d *detailed) Unwrap() error { return d.sentinel }

func detail(sentinel error, format string, args ...any) error {
	return &detailed{sentinel, fmt.Sprintf(format, args...)}
}

// FieldError is one invalid [Header] field found by [NewWriter], which
// joins one per problem with errors.Join.
type FieldError struct {
	// Field is the Go field: "Header.Game".
	Field string
	// Value is the rejected value (a length for strings and bytes).
	Value any
	// Problem says what is wrong, starting with a verb.
	Problem string
	// Allowed says what the field accepts.
	Allowed string
}

// Error reads "recording: Header.Game length 2000 is out of range; allowed:
// 0 to 1024 bytes".
func (e *FieldError) Error() string {
	return fmt.Sprintf("recording: %s %v %s; allowed: %s", e.Field, e.Value, e.Problem, e.Allowed)
}

// Unwrap returns ErrInvalid.
func (e *FieldError) Unwrap() error { return ErrInvalid }
