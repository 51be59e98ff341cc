// Package soundserver starts a private PulseAudio daemon with a null sink
// for tests that play through a real audio backend on a machine without
// sound hardware (CI, containers). The null sink consumes audio at the
// real sample rate, so a device fed through it keeps real time, runs its
// callbacks and can underrun like a sound card.
//
// It is test support: production code never imports it.
package soundserver

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Server is a running daemon. Close stops it.
type Server struct {
	cmd  *exec.Cmd
	keep *exec.Cmd // a client playing silence, see Start
	dir  string
	done chan error
	// Socket is the server's address, as PULSE_SERVER takes it.
	Socket string
}

// Start runs pulseaudio in the foreground as a child of this process
// (with no default script, no D-Bus, no idle exit, a 48 kHz null sink as
// the default sink, an anonymous unix socket in a fresh temporary
// directory), waits until it says it is ready, and points this process at
// it: PULSE_SERVER for libpulse, and an ALSA configuration whose default
// device is that server, for ALSA clients such as oto. Call it before
// anything opens an audio device.
func Start() (*Server, error) {
	bin, err := exec.LookPath("pulseaudio")
	if err != nil {
		return nil, fmt.Errorf("soundserver: pulseaudio not installed (scripts/setup.sh installs it): %w", err)
	}
	dir, err := os.MkdirTemp("", "metronome-pulse-")
	if err != nil {
		return nil, err
	}
	sock := filepath.Join(dir, "native")
	cmd := exec.Command(bin,
		"-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
		"--system=false", "--use-pid-file=no", "--log-target=stderr", "--log-level=info",
		"--load=module-null-sink sink_name=null rate=48000 channels=2",
		"--load=module-native-protocol-unix auth-anonymous=1 socket="+sock,
	)
	cmd.Env = append(os.Environ(), "PULSE_RUNTIME_PATH="+dir, "HOME="+dir, "XDG_RUNTIME_DIR="+dir)
	dieWithParent(cmd)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("soundserver: start pulseaudio: %w", err)
	}
	s := &Server{cmd: cmd, dir: dir, done: make(chan error, 1), Socket: "unix:" + sock}
	ready := make(chan struct{})
	var log strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		signalled := false
		for sc.Scan() {
			line := sc.Text()
			if !signalled {
				log.WriteString(line + "\n")
				if strings.Contains(line, "Daemon startup complete") {
					signalled = true
					close(ready)
				}
			}
		}
		s.done <- cmd.Wait()
	}()
	select {
	case <-ready:
	case err := <-s.done:
		os.RemoveAll(dir)
		return nil, fmt.Errorf("soundserver: pulseaudio exited before it was ready (%v): %s", err, log.String())
	case <-time.After(20 * time.Second):
		s.Close()
		return nil, errors.New("soundserver: pulseaudio did not become ready in 20s")
	}
	asoundrc := filepath.Join(dir, "asoundrc")
	conf := fmt.Sprintf("pcm.!default { type pulse server %q }\nctl.!default { type pulse server %q }\n", s.Socket, s.Socket)
	if err := os.WriteFile(asoundrc, []byte(conf), 0o644); err != nil {
		s.Close()
		return nil, err
	}
	// alsa-lib reads the user's configuration from $HOME/.asoundrc, so a
	// private HOME holds one; XDG_CONFIG_HOME covers newer releases.
	os.MkdirAll(filepath.Join(dir, "alsa"), 0o755)
	os.WriteFile(filepath.Join(dir, ".asoundrc"), []byte(conf), 0o644)
	os.WriteFile(filepath.Join(dir, "alsa", "asoundrc"), []byte(conf), 0o644)
	// An idle null sink sleeps in blocks of up to two seconds, and a
	// stream that joins waits out the block already begun. A client that
	// plays silence at low latency from the start keeps it ticking every
	// few milliseconds, as a sound card would.
	if pacat, err := exec.LookPath("pacat"); err == nil {
		s.keep = exec.Command(pacat, "--server="+s.Socket, "--playback", "--latency-msec=10",
			"--format=s16le", "--rate=48000", "--channels=2", "--raw", "/dev/zero")
		s.keep.Env = cmd.Env
		dieWithParent(s.keep)
		if err := s.keep.Start(); err != nil {
			s.keep = nil
		}
	}
	// The sink computed its first sleep (two seconds) before any client
	// asked for less; suspending and resuming it restarts its clock with
	// the client's latency.
	if pactl, err := exec.LookPath("pactl"); err == nil {
		for _, arg := range []string{"1", "0"} {
			c := exec.Command(pactl, "--server="+s.Socket, "suspend-sink", "null", arg)
			c.Env = cmd.Env
			c.Run()
		}
	}
	os.Setenv("PULSE_SERVER", s.Socket)
	os.Setenv("HOME", dir)
	os.Setenv("XDG_CONFIG_HOME", dir)
	return s, nil
}

// Freeze stops the daemon's process (SIGSTOP) without ending it: its
// clients' writes block as they would on a wedged device. Thaw resumes it.
// Where there is no SIGSTOP (Windows) it returns an error saying so.
func (s *Server) Freeze() error { return stopProcess(s.cmd.Process) }

// Thaw resumes a daemon Freeze stopped.
func (s *Server) Thaw() error { return continueProcess(s.cmd.Process) }

// Close stops the daemon this Start began and removes its directory.
func (s *Server) Close() error {
	if s.keep != nil {
		s.keep.Process.Kill()
		s.keep.Wait()
	}
	if s.cmd.Process != nil {
		continueProcess(s.cmd.Process)
		s.cmd.Process.Signal(os.Interrupt)
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			s.cmd.Process.Kill()
			<-s.done
		}
	}
	return os.RemoveAll(s.dir)
}

// InCI reports whether the CI environment variable is set to anything but
// "", "0" or "false": there a test that cannot get a device must fail.
func InCI() bool {
	v := strings.ToLower(os.Getenv("CI"))
	return v != "" && v != "false" && v != "0"
}
