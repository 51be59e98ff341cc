package media_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/metronome-go/metronome/media"
)

func TestErrorNamesPackageOpAndFile(t *testing.T) {
	tests := []struct {
		err      *media.Error
		msg      string
		sentinel error
	}{
		{&media.Error{Pkg: "assets", Op: "load image", Path: "hero.png", Err: media.Detail(media.ErrCorrupt, "not a PNG")},
			"assets: load image hero.png: not a PNG", media.ErrCorrupt},
		{&media.Error{Pkg: "audio", Op: "load sound", Path: "boom.wav", Err: media.Detail(media.ErrTooLarge, "%d bytes (at most %d)", 9, 8)},
			"audio: load sound boom.wav: 9 bytes (at most 8)", media.ErrTooLarge},
		{&media.Error{Pkg: "audio", Op: "open stream", Path: "song.ogg", Err: fs.ErrNotExist},
			"audio: open stream song.ogg: file does not exist", fs.ErrNotExist},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.msg {
			t.Errorf("Error() = %q, want %q", got, tt.msg)
		}
		if !errors.Is(tt.err, tt.sentinel) {
			t.Errorf("errors.Is(%v, %v) = false, want true", tt.err, tt.sentinel)
		}
		var e *media.Error
		if !errors.As(error(tt.err), &e) || e != tt.err {
			t.Errorf("errors.As(%v) did not find the *media.Error", tt.err)
		}
	}
}

func TestDetailKeepsOnlyItsSentinel(t *testing.T) {
	err := media.Detail(media.ErrInvalid, "size is %d, want 1 to %d", 0, 64)
	if got, want := err.Error(), "size is 0, want 1 to 64"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	for _, s := range []error{media.ErrCorrupt, media.ErrUnsupported, media.ErrTooLarge} {
		if errors.Is(err, s) {
			t.Errorf("errors.Is(%v, %v) = true, want false", err, s)
		}
	}
	if !errors.Is(err, media.ErrInvalid) {
		t.Errorf("errors.Is(%v, ErrInvalid) = false, want true", err)
	}
}
