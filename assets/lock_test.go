package assets_test

import (
	"image"
	"image/color"
	"sync"
	"testing"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/render2d/rendertest"
	"github.com/metronome-go/metronome/timing"
)

// gatedImage is an image that is not an *image.RGBA, so placing it reads
// it pixel by pixel; its first read signals reading and then waits for
// open to close.
type gatedImage struct {
	*image.RGBA
	once    sync.Once
	reading chan struct{}
	open    chan struct{}
}

func (g *gatedImage) At(x, y int) color.Color {
	g.once.Do(func() {
		close(g.reading)
		<-g.open
	})
	return g.RGBA.At(x, y)
}

// TestPlacingCopiesOutsideTheLock: while a goroutine copies an image's
// pixels into an atlas page, the library's lock is free, so the graphics
// thread's upload and the simulation's lookups never wait for the copy
// (issue 22 item 6: a worker preempted while copying under the lock kept
// the graphics thread waiting for up to 10 ms). The upload in the
// meantime leaves the page alone, the image's neighbours stay drawable,
// and once the copy is done the next step sends its texels.
func TestPlacingCopiesOutsideTheLock(t *testing.T) {
	opts := assets.DefaultOptions()
	opts.PageSize = 256
	lib := newLib(t, opts)
	rec := rendertest.NewRecorder(8, 8, 4096)
	first, err := lib.AddImage("first", pattern(16, 16, 1))
	if err != nil {
		t.Fatal(err)
	}
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	g := &gatedImage{RGBA: pattern(100, 100, 2), reading: make(chan struct{}), open: make(chan struct{})}
	type added struct {
		img assets.Image
		err error
	}
	done := make(chan added)
	go func() {
		img, err := lib.AddImage("gated", g)
		done <- added{img, err}
	}()
	<-g.reading
	if !lib.LockFree() {
		t.Error("the library's lock is held while an image's pixels are copied")
	} else {
		if _, err := lib.UploadStep(rec); err != nil {
			t.Fatal(err)
		}
		if _, err := lib.Region(first); err != nil {
			t.Errorf("a neighbour of the image being copied: %v, want it drawable", err)
		}
		// A small change elsewhere in the page (a glyph, a sprite) is
		// sent at once, without waiting for the copy.
		small, err := lib.AddImage("small", pattern(8, 8, 3))
		if err != nil {
			t.Fatal(err)
		}
		assets.OnWaitWriters(func() {
			t.Error("the upload waited for a copy into another part of the page")
			close(g.open) // or it would wait for good
		})
		_, err = lib.UploadStep(rec)
		assets.OnWaitWriters(nil)
		if err != nil {
			t.Fatal(err)
		}
		if r, err := lib.Region(small); err != nil {
			t.Errorf("a small image placed during the copy: %v, want it drawable", err)
		} else if !samePixels(regionPixels(t, rec, r), pattern(8, 8, 3)) {
			t.Error("a small image placed during the copy: its texels on the GPU differ")
		}
	}
	select {
	case <-g.open: // closed by the hook
	default:
		close(g.open)
	}
	a := <-done
	if a.err != nil {
		t.Fatal(a.err)
	}
	for i := 0; ; i++ {
		pending, err := lib.UploadStep(rec)
		if err != nil {
			t.Fatal(err)
		}
		if !pending {
			break
		}
		if i > 100 {
			t.Fatal("still pending after 100 steps")
		}
	}
	r, err := lib.Region(a.img)
	if err != nil {
		t.Fatal(err)
	}
	if !samePixels(regionPixels(t, rec, r), pattern(100, 100, 2)) {
		t.Error("the copied image's texels on the GPU differ from the image")
	}
}

// TestUploadCountsLockWait: an upload that finds the library's lock held
// (by a worker placing an image, say) counts the wait in UploadStats,
// apart from the rest of its time, and an upload that finds it free
// counts none: the timing report's load split tells lock waits from
// texel transfers by them.
func TestUploadCountsLockWait(t *testing.T) {
	const held = 7 * time.Millisecond
	clock := timing.NewManualClock(0)
	opts := assets.DefaultOptions()
	opts.Clock = clock
	lib := newLib(t, opts)
	rec := rendertest.NewRecorder(8, 8, 4096)
	if _, err := lib.AddImage("a", pattern(16, 16, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := lib.UploadStep(rec); err != nil {
		t.Fatal(err)
	}
	if st := lib.UploadStats(); st.LockWait != 0 || st.LongestLockWait != 0 {
		t.Fatalf("after an upload that found the lock free: %+v, want no lock wait", st)
	}
	waiting := make(chan struct{})
	assets.OnContended(func() { close(waiting) })
	defer assets.OnContended(nil)
	unlock := lib.HoldLock()
	stepped := make(chan error)
	go func() {
		_, err := lib.UploadStep(rec)
		stepped <- err
	}()
	<-waiting // the step found the lock held
	clock.Advance(held)
	unlock()
	if err := <-stepped; err != nil {
		t.Fatal(err)
	}
	st := lib.UploadStats()
	if st.LockWait != held || st.LongestLockWait != held {
		t.Errorf("lock wait %v, longest %v: want %v each", st.LockWait, st.LongestLockWait, held)
	}
	if st.Time < held {
		t.Errorf("upload time %v: want the %v wait in it", st.Time, held)
	}
	lib.ResetUploadPeak()
	if got := lib.UploadStats().LongestLockWait; got != 0 {
		t.Errorf("LongestLockWait after ResetUploadPeak: %v, want 0", got)
	}
}
