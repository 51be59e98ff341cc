package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/metronome-go/metronome/recording"
)

// fixtureInfo reads the template's recording: how many ticks it holds and
// the world hash of its last checkpoint. A template tree without one (while
// it is being made with -update) has none.
func fixtureInfo(fsys fs.FS, path string) (ticks, hash uint64, err error) {
	data, err := fs.ReadFile(fsys, path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	_, ticks, hash, err = rewriteRecording(data, path, "", "")
	return ticks, hash, err
}

// rewriteRecording copies a recording with its header's game module and
// main package set to game and its title to title ("" keeps them), so a
// recording made from the template replays as the new project's own (the
// template's test, at its module's root, recorded it). It returns the copy, the
// number of ticks and the hash of the last checkpoint.
func rewriteRecording(src []byte, name, game, title string) (out []byte, ticks, hash uint64, err error) {
	r, err := recording.NewReader(bytes.NewReader(src), name)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("newgame: template recording: %w", err)
	}
	h := r.Header()
	if game != "" {
		h.Game, h.Package = game, game+".test" // recorded by the template's test
	}
	if title != "" {
		h.Title = title
	}
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, name, h)
	if err != nil {
		return nil, 0, 0, err
	}
	for {
		item, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, 0, 0, fmt.Errorf("newgame: template recording: %w", err)
		}
		switch it := item.(type) {
		case *recording.Tick:
			ticks++
			err = w.Append(it)
		case *recording.Checkpoint:
			hash = it.Hash
			err = w.Checkpoint(it)
		case *recording.Hook:
			err = w.Hook(it)
		case *recording.End:
			err = w.Finish(it.Outcome, it.Error)
			if err == nil {
				return buf.Bytes(), ticks, hash, nil
			}
		}
		if err != nil {
			return nil, 0, 0, fmt.Errorf("newgame: copying the template recording: %w", err)
		}
	}
	return nil, 0, 0, fmt.Errorf("newgame: template recording %s has no end marker", name)
}
