package otoaudio

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// alsaNoCard is oto's error on a machine with no sound card and no sound
// server (this project's CI machines), 540 bytes.
const alsaNoCard = `oto: ALSA error at snd_pcm_open: "default": No such file or directory, "plug:default": No such file or directory, "lavrate": No such file or directory, "samplerate": No such file or directory, "speexrate": No such file or directory, "jack": No such file or directory, "oss": No such file or directory, "pulse": Connection refused, "speex": No such file or directory, "upmix": No such file or directory, "vdownmix": No such file or directory`

// TestDeviceErrorIsShort: a failure to open the device reads as one short
// line naming what failed, and keeps the system's words whole beside it.
func TestDeviceErrorIsShort(t *testing.T) {
	tests := []struct {
		system string
		want   string
	}{
		{alsaNoCard, `otoaudio: no audio device: ALSA opened none of 11 devices ("default": No such file or directory; "pulse": Connection refused)`},
		{`oto: ALSA error at snd_pcm_open: "default": Device or resource busy`, `otoaudio: no audio device: ALSA opened none of 1 device ("default": Device or resource busy)`},
		{`oto: ALSA error at snd_pcm_open: "a": e1, "b": e2, "c": e3, "d": e4`, `otoaudio: no audio device: ALSA opened none of 4 devices ("a": e1; "b": e2; "c": e3; …)`},
		{"oto: NewContext: CoreAudio refused", "otoaudio: no audio device: NewContext: CoreAudio refused"},
		{strings.Repeat("é", 100), "otoaudio: no audio device: " + strings.Repeat("é", 60) + "…"},
	}
	for _, tt := range tests {
		sys := errors.New(tt.system)
		err := error(noDevice(sys))
		if got := err.Error(); got != tt.want {
			t.Errorf("%.40q...: error %q, want %q", tt.system, got, tt.want)
		}
		if !errors.Is(err, ErrNoDevice) || !errors.Is(err, sys) {
			t.Errorf("%.40q...: %v does not wrap ErrNoDevice and the system's error", tt.system, err)
		}
		var de *DeviceError
		if !errors.As(err, &de) || de.System.Error() != tt.system {
			t.Errorf("%.40q...: the system's error is not kept whole", tt.system)
		}
		if got := Reason(err); got != strings.TrimPrefix(tt.want, "otoaudio: no audio device: ") {
			t.Errorf("Reason = %q", got)
		}
	}
	if got := Reason(errors.New(alsaNoCard)); !strings.HasPrefix(got, "ALSA opened none of 11 devices") {
		t.Errorf("Reason of a bare ALSA error = %q, want it shortened", got)
	}
}

// alsaDeviceRE is the pattern alsaDevices scans for, kept here as the
// reference its results are checked against.
var alsaDeviceRE = regexp.MustCompile(`"([^"]*)": ([^,]*)`)

func checkAlsaDevices(t *testing.T, list string) {
	t.Helper()
	var want [][2]string
	for _, m := range alsaDeviceRE.FindAllStringSubmatch(list, -1) {
		want = append(want, [2]string{m[1], m[2]})
	}
	if got := alsaDevices(list); !slices.Equal(got, want) {
		t.Errorf("alsaDevices(%q):\n got %q\nwant %q", list, got, want)
	}
}

// TestALSADevicesMatchesThePattern: the scan finds the pairs the regular
// expression it replaced finds, on ALSA's message and on odd quoting.
func TestALSADevicesMatchesThePattern(t *testing.T) {
	for _, list := range []string{
		strings.TrimPrefix(alsaNoCard, "oto: ALSA error at snd_pcm_open: "),
		``,
		`"a": x`,
		`"a": x, "b": y,`,
		`"a"b": x`,
		`"a" "b": x`,
		`"unclosed: x`,
		`"a": `,
		`"a":x, "b": y`,
		`""": x`,
		`"a": x"y": z`,
	} {
		checkAlsaDevices(t, list)
	}
}

func FuzzALSADevices(f *testing.F) {
	f.Add(alsaNoCard)
	f.Add(`"a"b": x, "c": d`)
	f.Fuzz(func(t *testing.T, list string) { checkAlsaDevices(t, list) })
}
