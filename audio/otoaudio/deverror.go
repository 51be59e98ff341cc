package otoaudio

import (
	"errors"
	"fmt"
	"strings"
)

// DeviceError is a failure to open the system's audio output: it wraps
// [ErrNoDevice], and its message says what went wrong in one short line.
// System keeps the sound library's own error whole, for a game that wants
// every detail: ALSA's names each device it tried and why that one failed,
// several hundred characters on a machine with no sound card.
type DeviceError struct {
	// Reason is what went wrong, in a few words.
	Reason string
	// System is the sound library's error; nil when the package found the
	// problem itself (a device already open, a server that never answered).
	System error
}

// Error reads "otoaudio: no audio device: REASON".
func (e *DeviceError) Error() string { return ErrNoDevice.Error() + ": " + e.Reason }

// Unwrap returns ErrNoDevice and the system's error.
func (e *DeviceError) Unwrap() []error {
	if e.System == nil {
		return []error{ErrNoDevice}
	}
	return []error{ErrNoDevice, e.System}
}

// noDevice is the DeviceError of a failure of the sound library.
func noDevice(system error) *DeviceError {
	return &DeviceError{Reason: brief(system.Error()), System: system}
}

// noDeviceBecause is the DeviceError of a problem the package found.
func noDeviceBecause(format string, args ...any) *DeviceError {
	return &DeviceError{Reason: fmt.Sprintf(format, args...)}
}

// alsaDevices splits ALSA's list of devices ("name": why, "name": why)
// into name and reason pairs. A scan, not a regexp, so that a game does
// not link the regexp engine for one error message.
func alsaDevices(list string) [][2]string {
	var out [][2]string
	for {
		i := strings.IndexByte(list, '"')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(list[i+1:], '"')
		if j < 0 {
			return out
		}
		name, rest := list[i+1:i+1+j], list[i+2+j:]
		why, ok := strings.CutPrefix(rest, ": ")
		if !ok {
			list = list[i+1+j:] // that closing quote may open the next name
			continue
		}
		if k := strings.IndexByte(why, ','); k >= 0 {
			why, list = why[:k], why[k:]
		} else {
			list = ""
		}
		out = append(out, [2]string{name, why})
	}
}

// maxReason bounds a reason that is not ALSA's list, in bytes.
const maxReason = 120

// brief shortens a sound library's message. ALSA's ("oto: ALSA error at
// snd_pcm_open: "default": No such file or directory, "plug:default": ...,
// "pulse": Connection refused, ...") becomes the count of devices tried and
// the first device of each different failure, at most three: most fail
// alike, and the one that differs ("pulse": Connection refused, a sound
// server that is not running) is the one worth reading. Anything else is
// cut to maxReason bytes.
func brief(msg string) string {
	msg = strings.TrimPrefix(msg, "oto: ")
	if list, ok := strings.CutPrefix(msg, "ALSA error at snd_pcm_open: "); ok {
		devices := alsaDevices(list)
		var shown []string
		seen := map[string]bool{}
		for _, d := range devices {
			if !seen[d[1]] {
				seen[d[1]] = true
				shown = append(shown, fmt.Sprintf("%q: %s", d[0], d[1]))
			}
		}
		if len(shown) > 0 {
			more := ""
			if len(shown) > 3 {
				shown, more = shown[:3], "; …"
			}
			n := "1 device"
			if len(devices) != 1 {
				n = fmt.Sprintf("%d devices", len(devices))
			}
			return fmt.Sprintf("ALSA opened none of %s (%s%s)", n, strings.Join(shown, "; "), more)
		}
	}
	if len(msg) > maxReason {
		cut := maxReason
		for cut > 0 && msg[cut]&0xc0 == 0x80 { // not inside a UTF-8 sequence
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return msg
}

// Reason returns what went wrong in err, short: a [DeviceError]'s Reason,
// or err's message cut to a line. For a program's one line about its sound
// being off.
func Reason(err error) string {
	var de *DeviceError
	if errors.As(err, &de) {
		return de.Reason
	}
	return brief(err.Error())
}
