//go:build linux

package otoaudio

/*
#cgo pkg-config: alsa
#include <alsa/asoundlib.h>

// quiet drops alsa-lib's diagnostics. Without a device, oto tries every
// PCM the configuration names and alsa-lib prints a line for each failure
// to stderr; the caller reports the one error that matters instead.
static void quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {}

static void silenceALSA(void) { snd_lib_error_set_handler(quiet); }
*/
import "C"

// silenceLibrary stops alsa-lib writing its own diagnostics to stderr.
func silenceLibrary() { C.silenceALSA() }
