package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Limits on configuration read from outside the program: a file, a game's
// embedded config.toml, a recording's configuration. They are checked
// before the TOML is parsed, so no input can make the parser run for
// minutes or take gigabytes.
const (
	// MaxFileSize is the largest configuration accepted, in bytes
	// (1 MiB; the defaults with every comment are under 16 KiB).
	MaxFileSize = 1 << 20
	// MaxDepth is the deepest nesting accepted: each table of a header
	// ([a.b] is 2), each part of a key (dotted, or inside an inline
	// table: x = {a = 1} is x.a) and each array counts one. The
	// framework's own keys need 4.
	MaxDepth = 16
	// MaxProblems is how many problems an error lists; the rest are
	// counted in one line.
	MaxProblems = 20
)

// readFile reads a configuration file: a regular file of at most
// MaxFileSize bytes. A FIFO, a device such as /dev/zero or a directory is
// refused before it is opened, so reading never blocks or runs on.
func readFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, errors.Unwrap(err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("it is %s, not a regular file", describeMode(st.Mode()))
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("it has %d bytes; allowed: at most %d (config.MaxFileSize)", st.Size(), MaxFileSize)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errors.Unwrap(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize { // it grew since the Stat
		return nil, fmt.Errorf("it has more than %d bytes; allowed: at most %d (config.MaxFileSize)", MaxFileSize, MaxFileSize)
	}
	return data, nil
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file (mode " + m.String() + ")"
}

// checkShape checks a document's size and nesting before it is parsed. It
// follows TOML's lexical structure only as far as nesting needs: strings
// and comments are skipped, keys are counted by their dotted parts, and
// arrays and inline tables by their brackets. A document it lets through
// may still be invalid TOML; the parser says so. BurntSushi/toml v1.6.0
// sets no bound of its own: inline tables nested 2^15 deep (x = {a={a=...,
// 160 KiB) were still being parsed when a test timed out after 4m40s.
func checkShape(name string, data []byte) error {
	if len(data) > MaxFileSize {
		return &Error{File: name, Problem: fmt.Sprintf("the configuration has %d bytes; allowed: at most %d (config.MaxFileSize)", len(data), MaxFileSize)}
	}
	s := shape{data: data, line: 1}
	if line, ok := s.scan(); !ok {
		return &Error{File: fmt.Sprintf("%s:%d", name, line), Problem: fmt.Sprintf("nested deeper than %d levels (each table of a header, part of a key and array counts one; config.MaxDepth)", MaxDepth)}
	}
	return nil
}

// shape is checkShape's scanner.
type shape struct {
	data []byte
	i    int
	line int
}

// scan reports false, with the line, at the first place nested deeper than
// MaxDepth.
func (s *shape) scan() (int, bool) {
	base := 0 // the current table header's depth
	level := 0
	var open []int // the level at each open array or inline table
	inTable := func() bool { return len(open) > 0 && open[len(open)-1] < 0 }
	expectKey := true
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '\n':
			s.line++
			s.i++
			if len(open) == 0 {
				expectKey, level = true, base
			}
		case c == ' ' || c == '\t' || c == '\r':
			s.i++
		case c == '#':
			for s.i < len(s.data) && s.data[s.i] != '\n' {
				s.i++
			}
		case expectKey && len(open) == 0 && c == '[':
			// A table header: [a.b] or [[a.b]].
			s.i++
			if s.i < len(s.data) && s.data[s.i] == '[' {
				s.i++
			}
			base = s.key(']')
			level = base
			if base > MaxDepth {
				return s.line, false
			}
			for s.i < len(s.data) && s.data[s.i] == ']' {
				s.i++
			}
		case expectKey:
			parts := s.key('=')
			if s.i < len(s.data) && s.data[s.i] == '=' {
				s.i++
			}
			expectKey = false
			if inTable() {
				level = -open[len(open)-1] - 1 + parts
			} else {
				level += parts
			}
			if level > MaxDepth {
				return s.line, false
			}
		case c == '"' || c == '\'':
			s.str()
		case c == '{':
			// x = {a = 1} is x.a = 1: the keys inside count, not the
			// braces.
			s.i++
			open = append(open, -level-1) // negative: an inline table
			expectKey = true
		case c == '[':
			s.i++
			level++
			if level > MaxDepth {
				return s.line, false
			}
			open = append(open, level)
		case c == ']' || c == '}':
			s.i++
			if len(open) > 0 {
				top := open[len(open)-1]
				open = open[:len(open)-1]
				if top < 0 {
					level = -top - 1
				} else {
					level = top - 1
				}
			}
			expectKey = false
		case c == ',':
			s.i++
			if inTable() {
				expectKey = true
			}
		default:
			s.i++
		}
	}
	return s.line, true
}

// key skips a key up to the byte end ('=' for a key, ']' for a header) or
// the end of the line and returns its number of dotted parts.
func (s *shape) key(end byte) int {
	parts := 1
	for s.i < len(s.data) {
		switch c := s.data[s.i]; c {
		case end, '\n':
			return parts
		case '"', '\'':
			s.str()
		case '.':
			parts++
			s.i++
		default:
			s.i++
		}
	}
	return parts
}

// str skips a string of any of TOML's four kinds, counting its lines.
func (s *shape) str() {
	q := s.data[s.i]
	triple := s.i+2 < len(s.data) && s.data[s.i+1] == q && s.data[s.i+2] == q
	if triple {
		s.i += 3
	} else {
		s.i++
	}
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '\\' && q == '"':
			s.i += 2
			continue
		case c == '\n':
			s.line++
			if !triple {
				s.i++
				return // unterminated: the parser reports it
			}
		case c == q:
			if !triple {
				s.i++
				return
			}
			if s.i+2 < len(s.data) && s.data[s.i+1] == q && s.data[s.i+2] == q {
				s.i += 3
				for s.i < len(s.data) && s.data[s.i] == q { // """a"""" ends with quotes
					s.i++
				}
				return
			}
		}
		s.i++
	}
}

// capProblems keeps the first MaxProblems problems and counts the rest in
// one more.
func capProblems(errs []error) []error {
	if len(errs) <= MaxProblems {
		return errs
	}
	rest := len(errs) - MaxProblems
	return append(errs[:MaxProblems:MaxProblems], fmt.Errorf("config: and %d more problems (the first %d are listed)", rest, MaxProblems))
}
