package media

import (
	"errors"
	"fmt"
)

// Sentinel errors for the faults every reader of outside files meets.
// Errors from assets and audio wrap one of them (or one of their own
// package's, or an error from io/fs such as [io/fs.ErrNotExist]).
var (
	// ErrCorrupt reports data that is not a well-formed file of its kind
	// (PNG, font, WAV, Ogg Vorbis, MP3): truncated, damaged or of another
	// format.
	ErrCorrupt = errors.New("media: corrupt data")
	// ErrUnsupported reports a well-formed file that cannot be used, such
	// as a font collection or a WAV file with five channels.
	ErrUnsupported = errors.New("media: unsupported format")
	// ErrTooLarge reports data beyond a limit that keeps a damaged or
	// hostile file from taking unbounded memory, or an image larger than
	// the renderer's maximum texture size; the description names the
	// limit.
	ErrTooLarge = errors.New("media: too large")
	// ErrInvalid reports a bad argument: a parameter out of range, a sheet
	// layout outside its image, an unknown name, a stream played twice.
	ErrInvalid = errors.New("media: invalid argument")
)

// Error is a failure to load, decode or use a named file or asset. It
// records the package that reports it (Pkg), what was being done (Op), the
// file or asset name (Path) and the cause (Err).
type Error struct {
	Pkg  string // "assets" or "audio"; it prefixes the message
	Op   string // "load image", "load font", "load sound", "upload", "open stream", ...
	Path string // file name as given to the fs.FS, or the asset's name
	Err  error
}

// Error reads "assets: load image hero.png: image is 0x0".
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s %s: %v", e.Pkg, e.Op, e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Detail returns an error that reads as the formatted description and
// matches sentinel with errors.Is, so a message can say what exactly was
// wrong ("image is 0x0") while callers still branch on the kind of fault.
func Detail(sentinel error, format string, args ...any) error {
	return &detailError{sentinel: sentinel, msg: fmt.Sprintf(format, args...)}
}

type detailError struct {
	sentinel error
	msg      string
}

func (e *detailError) Error() string { return e.msg }
func (e *detailError) Unwrap() error { return e.sentinel }
