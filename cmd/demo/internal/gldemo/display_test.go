package gldemo_test

import (
	"testing"

	"github.com/metronome-go/metronome/internal/testdisplay"
)

func unavailable(t *testing.T) { testdisplay.Unavailable(t, displayErr) }
