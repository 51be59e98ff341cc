package config

import (
	"bytes"
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
		kind, ok := fileKinds[st.Mode().Type()]
		if !ok {
			kind = "of mode " + st.Mode().String()
		}
		return nil, fmt.Errorf("it is %s, not a regular file", kind)
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("it has %d bytes; allowed: at most %d (config.MaxFileSize)", st.Size(), MaxFileSize)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errors.Unwrap(err)
	}
	defer f.Close()
	// A file that grew since the Stat is cut one byte past the limit,
	// which checkShape then refuses.
	return io.ReadAll(io.LimitReader(f, MaxFileSize+1))
}

// fileKinds names the kinds of file that are not regular.
var fileKinds = map[fs.FileMode]string{
	fs.ModeDir: "a directory", fs.ModeNamedPipe: "a named pipe (FIFO)", fs.ModeSocket: "a socket",
	fs.ModeDevice | fs.ModeCharDevice: "a character device", fs.ModeDevice: "a device",
}

// checkShape checks a document's size and nesting before it is parsed.
// BurntSushi/toml v1.6.0 bounds no depth: inline tables nested 2^15 deep
// (x = {a={a=..., 160 KiB) were still being parsed when a test timed out
// after 4m40s. A document it lets through may still be invalid TOML; the
// parser says so.
func checkShape(name string, data []byte) error {
	if len(data) > MaxFileSize {
		return &Error{File: name, Problem: fmt.Sprintf("the configuration has %d bytes; allowed: at most %d (config.MaxFileSize)", len(data), MaxFileSize)}
	}
	if line, deep := tooDeep(data); deep {
		return &Error{File: fmt.Sprintf("%s:%d", name, line), Problem: fmt.Sprintf("nested deeper than %d levels (each table of a header, part of a key and array counts one; config.MaxDepth)", MaxDepth)}
	}
	return nil
}

// tooDeep reports the line of the first place nested deeper than MaxDepth.
// It follows TOML's lexical structure only as far as nesting needs:
// strings and comments are skipped, a key counts its dotted parts (inside
// an inline table from the depth of the key holding the table, so
// x = {a = 1} is x.a) and an array counts one.
func tooDeep(data []byte) (line int, deep bool) {
	const (
		wantKey = iota
		inKey
		inValue
	)
	line, state := 1, wantKey
	base, level := 0, 0 // the current header's depth; the depth here
	header := false
	var open []int // at each open bracket, the depth to return to; ^depth for an inline table
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c == '\n':
			line++
			if len(open) == 0 {
				state, level = wantKey, base
			}
			continue
		case c == '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
			continue
		case state == wantKey && c == '[' && len(open) == 0: // [a.b] or [[a.b]]
			if i+1 < len(data) && data[i+1] == '[' {
				i++
			}
			state, level, header = inKey, 1, true
			continue
		case state == wantKey && c != '}':
			state = inKey
			level++
		}
		switch {
		case c == '"' || c == '\'':
			i, line = skipString(data, i, line)
		case state == inKey && c == '.':
			level++
		case state == inKey && c == '=':
			state = inValue
		case state == inKey && header && c == ']':
			state, base, header = inValue, level, false
			if i+1 < len(data) && data[i+1] == ']' {
				i++
			}
		case c == '{':
			open = append(open, ^level)
			state = wantKey
		case c == '[':
			level++
			open = append(open, level)
		case (c == ']' || c == '}') && len(open) > 0:
			top := open[len(open)-1]
			open = open[:len(open)-1]
			level, state = top-1, inValue
			if top < 0 {
				level = ^top
			}
		case c == ',' && len(open) > 0 && open[len(open)-1] < 0:
			level, state = ^open[len(open)-1], wantKey
		}
		if level > MaxDepth {
			return line, true
		}
	}
	return line, false
}

// skipString skips the string of any of TOML's four kinds that starts at
// i, returning the index of its last byte and the line it ends on. An
// unterminated one ends before its line's end: the parser reports it.
func skipString(data []byte, i, line int) (int, int) {
	q := data[i]
	triple := bytes.HasPrefix(data[i:], []byte{q, q, q})
	if triple {
		i += 2
	}
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '\\' && q == '"':
			i++
		case c == '\n' && !triple:
			return i - 1, line
		case c == '\n':
			line++
		case c == q && !triple:
			return i, line
		case c == q && bytes.HasPrefix(data[i:], []byte{q, q, q}):
			for i += 2; i+1 < len(data) && data[i+1] == q; i++ { // """a"""" ends with quotes
			}
			return i, line
		}
	}
	return i, line
}

// checked returns c, or on any problem the zero Config and the problems
// joined: the first MaxProblems, then one line counting the rest.
func checked(c Config, errs []error) (Config, error) {
	if len(errs) == 0 {
		return c, nil
	}
	if rest := len(errs) - MaxProblems; rest > 0 {
		errs = append(errs[:MaxProblems:MaxProblems], fmt.Errorf("config: and %d more problems (the first %d are listed)", rest, MaxProblems))
	}
	return Config{}, errors.Join(errs...)
}
