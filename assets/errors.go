package assets

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error this package returns wraps one of them (or an
// error from io/fs such as [fs.ErrNotExist]), so callers branch with
// [errors.Is] and print the error for a human.
var (
	// ErrCorrupt reports data that is not a well-formed PNG or font:
	// truncated, damaged or of another format.
	ErrCorrupt = errors.New("assets: corrupt data")
	// ErrUnsupported reports a well-formed file this package cannot use,
	// such as a font collection.
	ErrUnsupported = errors.New("assets: unsupported format")
	// ErrEmpty reports an image with zero width or height.
	ErrEmpty = errors.New("assets: zero-size image")
	// ErrTooLarge reports an image larger than the maximum texture size.
	ErrTooLarge = errors.New("assets: image larger than the maximum texture size")
	// ErrStale reports a handle whose asset was released or reloaded, or a
	// handle this library never issued.
	ErrStale = errors.New("assets: stale handle")
	// ErrPending reports an asset whose texture page has not been created
	// on the GPU yet: call [Library.Upload] on the graphics thread first.
	ErrPending = errors.New("assets: texture not uploaded yet")
	// ErrInvalid reports bad arguments: a sheet layout outside its image,
	// an unknown region or animation name, a font size out of range.
	ErrInvalid = errors.New("assets: invalid argument")
	// ErrCanceled reports a background load that was canceled, by
	// [Load.Cancel] or because its executor stopped taking its work (a
	// runtime group canceled, the session stopping).
	ErrCanceled = errors.New("assets: load canceled")
	// ErrPanicked reports a background load ended by a panic in one of
	// its jobs (a generator, a file system); the error names the file.
	ErrPanicked = errors.New("assets: load job panicked")
)

// Error is a failure to load or use a named asset. It records what was being
// done (Op), the file or asset name (Path) and the cause (Err), like
// [fs.PathError].
type Error struct {
	Op   string // "load image", "load font", "reload image", "upload", ...
	Path string // file name as given to the fs.FS, or the asset's name
	Err  error
}

func (e *Error) Error() string {
	return fmt.Sprintf("assets: %s %s: %v", e.Op, e.Path, e.Err)
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
