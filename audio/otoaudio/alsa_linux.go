//go:build linux

package otoaudio

/*
#cgo pkg-config: alsa
#cgo LDFLAGS: -ldl
#include <alsa/asoundlib.h>
#include <dlfcn.h>

// quiet drops alsa-lib's diagnostics. Without a device, oto tries every
// PCM the configuration names and alsa-lib prints a line for each failure
// to stderr; the caller reports the one error that matters instead.
static void quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {}

// quietJACK drops libjack's messages. alsa-lib's JACK plugin (from
// libasound2-plugins) is among the PCMs oto tries, and libjack prints five
// lines of its own to stderr when no JACK server runs.
static void quietJACK(const char *msg) {}

static void silenceALSA(void) {
	snd_lib_error_set_handler(quiet);
	// The plugin links libjack.so.0; loaded here first, it is the copy the
	// plugin gets, so its message functions are ours. The handle is kept
	// for the life of the process. Without libjack there is nothing to
	// silence.
	void *jack = dlopen("libjack.so.0", RTLD_LAZY);
	if (jack == NULL) {
		return;
	}
	void (*setError)(void (*)(const char *)) = (void (*)(void (*)(const char *)))dlsym(jack, "jack_set_error_function");
	void (*setInfo)(void (*)(const char *)) = (void (*)(void (*)(const char *)))dlsym(jack, "jack_set_info_function");
	if (setError != NULL) {
		setError(quietJACK);
	}
	if (setInfo != NULL) {
		setInfo(quietJACK);
	}
}
*/
import "C"

// silenceLibrary stops alsa-lib and libjack writing their own diagnostics
// to stderr.
func silenceLibrary() { C.silenceALSA() }
