package assets

import "errors"

// Sentinel errors for the faults only this package meets. Every error this
// package returns wraps one of them, one of package media's
// ([media.ErrCorrupt], [media.ErrUnsupported], [media.ErrTooLarge],
// [media.ErrInvalid], shared with package audio) or an error from io/fs such
// as [io/fs.ErrNotExist], so callers branch with [errors.Is] and print the
// error for a human. A failure with a named file is a [*media.Error] with
// Pkg "assets".
var (
	// ErrEmpty reports an image with zero width or height.
	ErrEmpty = errors.New("assets: zero-size image")
	// ErrStale reports a handle whose asset was released or reloaded, or a
	// handle this library never issued.
	ErrStale = errors.New("assets: stale handle")
	// ErrPending reports an asset whose texture page has not been created
	// on the GPU yet: call [Library.Upload] on the graphics thread first.
	ErrPending = errors.New("assets: texture not uploaded yet")
	// ErrCanceled reports a background load that was canceled, by
	// [Load.Cancel] or because its executor stopped taking its work (a
	// runtime group canceled, the session stopping).
	ErrCanceled = errors.New("assets: load canceled")
	// ErrPanicked reports a background load ended by a panic in one of
	// its jobs (a generator, a file system); the error names the file.
	ErrPanicked = errors.New("assets: load job panicked")
)
