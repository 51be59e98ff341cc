package assets_test

import (
	"context"
	"errors"
	"fmt"
	"image"
	"testing"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
	"github.com/metronome-go/metronome/timing"
)

// costlyUploader is a recorder whose texel transfers take time on a
// manual clock: perByte for every byte sent.
type costlyUploader struct {
	*rendertest.Recorder
	clock   *timing.ManualClock
	perByte time.Duration
}

func (u *costlyUploader) CreateTexture(img *image.RGBA, opts render2d.TextureOptions) (render2d.TextureHandle, error) {
	if len(img.Pix) > 0 {
		u.clock.Advance(time.Duration(4*img.Rect.Dx()*img.Rect.Dy()) * u.perByte)
	}
	return u.Recorder.CreateTexture(img, opts)
}

func (u *costlyUploader) UpdateTexture(h render2d.TextureHandle, x, y int, img *image.RGBA) error {
	u.clock.Advance(time.Duration(4*img.Rect.Dx()*img.Rect.Dy()) * u.perByte)
	return u.Recorder.UpdateTexture(h, x, y, img)
}

// The budget tests' graphics link: 100 MB/s, so that one band costs a
// third of the 2 ms budget.
const (
	budget  = 2 * time.Millisecond
	perByte = 10 * time.Nanosecond
	band    = 64 << 10 * perByte // the cost of one band
)

// newBudgetLib returns a library of 512-texel pages with the 2 ms upload
// budget, measured on a manual clock, and an uploader on that clock whose
// texels cost perByte each and whose textures cost create to make.
func newBudgetLib(t *testing.T, create time.Duration) (*assets.Library, *allocUploader) {
	t.Helper()
	clock := timing.NewManualClock(0)
	opts := assets.DefaultOptions()
	opts.PageSize = 512
	opts.UploadBudget = budget
	opts.Clock = clock
	u := &allocUploader{costlyUploader: costlyUploader{Recorder: rendertest.NewRecorder(8, 8, 4096), clock: clock, perByte: perByte}, create: create}
	return newLib(t, opts), u
}

// checkOnGPU checks that image i of imgs, pattern i of 200x200, is drawable
// and that its texels on u's GPU are the image's.
func checkOnGPU(t *testing.T, lib *assets.Library, u *allocUploader, imgs []assets.Image) {
	t.Helper()
	for i, img := range imgs {
		r, err := lib.Region(img)
		if err != nil {
			t.Fatalf("image %d after the upload: %v", i, err)
		}
		if !samePixels(regionPixels(t, u.Recorder, r), pattern(200, 200, uint8(i))) {
			t.Errorf("image %d: texels on the GPU differ from the image", i)
		}
	}
}

// TestUploadStepSpreadsWithinBudget places twelve 200x200 images (1.9 MB
// of texels) on a graphics link of 100 MB/s: Upload sends them in one
// call of about 19 ms, UploadStep in steps that each stay within the 2 ms
// budget plus one band, with the images pending until their texels are
// sent, and in the end the same texels on the GPU (issue 22, item 6: a
// background load uploaded its whole atlas in one frame).
func TestUploadStepSpreadsWithinBudget(t *testing.T) {
	setup := func(t *testing.T) (*assets.Library, *allocUploader, []assets.Image) {
		lib, u := newBudgetLib(t, 0)
		var imgs []assets.Image
		for i := range 12 {
			img, err := lib.AddImage(fmt.Sprint("tile", i), pattern(200, 200, uint8(i)))
			if err != nil {
				t.Fatal(err)
			}
			imgs = append(imgs, img)
		}
		return lib, u, imgs
	}

	t.Run("Upload", func(t *testing.T) {
		lib, u, _ := setup(t)
		if err := lib.Upload(u); err != nil {
			t.Fatal(err)
		}
		if got := lib.UploadStats().Longest; got < 10*time.Millisecond {
			t.Errorf("Upload took %v: want it all at once, over 10ms", got)
		}
	})
	t.Run("UploadStep", func(t *testing.T) {
		lib, u, imgs := setup(t)
		steps, pendingSeen := 0, false
		for {
			start := u.clock.Now()
			pending, err := lib.UploadStep(u)
			if err != nil {
				t.Fatal(err)
			}
			steps++
			if d := time.Duration(u.clock.Now() - start); d > budget+band {
				t.Fatalf("step %d took %v, want at most the %v budget and one band (%v)", steps, d, budget, band)
			}
			if !pending {
				break
			}
			for _, img := range imgs {
				if _, err := lib.Region(img); errors.Is(err, assets.ErrPending) {
					pendingSeen = true
				} else if err != nil {
					t.Fatal(err)
				}
			}
			if steps > 100 {
				t.Fatal("still pending after 100 steps")
			}
		}
		if steps < 5 || !pendingSeen {
			t.Errorf("%d steps, an image seen pending: %v; want the upload spread over at least 5 steps", steps, pendingSeen)
		}
		checkOnGPU(t, lib, u, imgs)
		st := lib.UploadStats()
		if st.Calls != uint64(steps) || st.Deferred != uint64(steps-1) || st.Longest > budget+band {
			t.Errorf("stats %+v after %d steps: want %d calls, %d deferred, none longer than %v", st, steps, steps, steps-1, budget+band)
		}
	})
}

// TestLoadUploadsWithinBudget: a background load of twelve generated
// 200x200 images finishes its upload in several graphics steps, none longer
// than the budget and one band, and is done only once every image is on
// the GPU.
func TestLoadUploadsWithinBudget(t *testing.T) {
	lib, u := newBudgetLib(t, 0)
	clock := u.clock
	var files []assets.File
	for i := range 12 {
		files = append(files, assets.GeneratedImage(fmt.Sprint("tile", i), func(context.Context) (image.Image, error) {
			return pattern(200, 200, uint8(i)), nil
		}))
	}
	e := newFakeExec()
	ld, err := lib.StartLoad(e, nil, files, assets.LoadOptions{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for !ld.Done() {
		start := clock.Now()
		n := e.step(u)
		if d := time.Duration(clock.Now() - start); d > budget+band {
			t.Fatalf("graphics step %d took %v, want at most %v", steps, d, budget+band)
		}
		if n == 0 {
			e.await(t)
		}
		steps++
	}
	e.finish(u)
	if err := ld.Err(); err != nil {
		t.Fatal(err)
	}
	if st := lib.UploadStats(); st.Deferred < 4 || st.Longest > budget+band {
		t.Errorf("upload stats %+v: want the load's upload spread over at least 5 steps, none longer than %v", st, budget+band)
	}
	imgs := make([]assets.Image, len(files))
	for i := range files {
		if imgs[i], err = ld.Image(i); err != nil {
			t.Fatal(err)
		}
	}
	checkOnGPU(t, lib, u, imgs)
}

// allocUploader is a costlyUploader whose textures also cost create to
// allocate, as a new page does on software GL (llvmpipe touches its fresh
// memory), and that counts what each step did.
type allocUploader struct {
	costlyUploader
	create          time.Duration
	creates, bands  int // in the current step
	stepsWithCreate int
}

func (u *allocUploader) CreateTexture(img *image.RGBA, opts render2d.TextureOptions) (render2d.TextureHandle, error) {
	u.clock.Advance(u.create)
	u.creates++
	return u.costlyUploader.CreateTexture(img, opts)
}

func (u *allocUploader) UpdateTexture(h render2d.TextureHandle, x, y int, img *image.RGBA) error {
	if 4*img.Rect.Dx()*img.Rect.Dy() > 16<<10 {
		u.bands++
	}
	return u.costlyUploader.UpdateTexture(h, x, y, img)
}

// TestUploadStepCreatesPagesAlone: a texture costs 12 ms to create, six
// budgets' worth. Images added between steps, as a background load adds
// them, fill page after page; every step creates at most one texture and
// sends no band with it, so a step costs a band's budget or one creation,
// never both (the demo's load created its spare page after a full budget
// of bands, and presents took both). The spare page is made on a step
// with nothing else to send; until then the step reports work pending.
func TestUploadStepCreatesPagesAlone(t *testing.T) {
	const create = 12 * time.Millisecond
	lib, u := newBudgetLib(t, create)
	clock := u.clock
	var imgs []assets.Image
	step := func() bool {
		u.creates, u.bands = 0, 0
		start := clock.Now()
		pending, err := lib.UploadStep(u)
		if err != nil {
			t.Fatal(err)
		}
		d := time.Duration(clock.Now() - start)
		switch {
		case u.creates > 1:
			t.Fatalf("step %d created %d textures, want at most one", lib.UploadStats().Calls, u.creates)
		case u.creates == 1 && u.bands > 0:
			t.Fatalf("step %d created a texture and sent %d bands (%v), want the creation alone", lib.UploadStats().Calls, u.bands, d)
		case u.creates == 0 && d > budget+band:
			t.Fatalf("step %d took %v, want at most %v", lib.UploadStats().Calls, d, budget+band)
		}
		if u.creates == 1 {
			u.stepsWithCreate++
		}
		return pending
	}
	for i := range 16 { // four 200x200 images a 512 page: four pages
		img, err := lib.AddImage(fmt.Sprint("tile", i), pattern(200, 200, uint8(i)))
		if err != nil {
			t.Fatal(err)
		}
		imgs = append(imgs, img)
		step()
	}
	for n := 0; step(); n++ {
		if n > 200 {
			t.Fatal("still pending after 200 steps")
		}
	}
	if st := lib.Stats(); st.Pages != 5 || st.Textures != 5 || u.stepsWithCreate != 5 {
		t.Errorf("after the steps: %d pages, %d textures, %d steps that created one; want 5, 5, 5 (four filled, one spare)", st.Pages, st.Textures, u.stepsWithCreate)
	}
	// The statistics split the steps' time: the creations (made without
	// texels, so costing create alone) and the sends (perByte a byte).
	st := lib.UploadStats()
	if st.Creates != 5 || st.CreateTime != 5*create || st.LongestCreate != create {
		t.Errorf("creations: %d in %v, longest %v; want 5 in %v, longest %v", st.Creates, st.CreateTime, st.LongestCreate, 5*create, create)
	}
	if st.Sends == 0 || st.SendTime != time.Duration(st.Bytes)*perByte || st.LongestSend > band {
		t.Errorf("sends: %d of %d bytes in %v, longest %v; want %v (%v a byte), none longer than a band (%v)", st.Sends, st.Bytes, st.SendTime, st.LongestSend, time.Duration(st.Bytes)*perByte, perByte, band)
	}
	if st.Time != st.CreateTime+st.SendTime {
		t.Errorf("upload time %v, want the creations' and sends' %v (staging costs nothing on the manual clock)", st.Time, st.CreateTime+st.SendTime)
	}
	lib.ResetUploadPeak()
	if st := lib.UploadStats(); st.LongestCreate != 0 || st.LongestSend != 0 || st.Creates != 5 {
		t.Errorf("after ResetUploadPeak: longest creation %v, send %v, %d creations; want 0, 0 and the count kept", st.LongestCreate, st.LongestSend, st.Creates)
	}
	checkOnGPU(t, lib, u, imgs)
}

// TestReserveCreatesPagesAhead: with room reserved for sixteen 200x200
// images (four to a 512 page) before the setup's Upload, images added
// between budgeted steps, as a background load adds them, never make a
// step create a texture, and a spare page is left after them.
func TestReserveCreatesPagesAhead(t *testing.T) {
	lib, u := newBudgetLib(t, 12*time.Millisecond)
	clock := u.clock
	if err := lib.Reserve(16, 200, 200); err != nil {
		t.Fatal(err)
	}
	start := clock.Now()
	if err := lib.Upload(u); err != nil {
		t.Fatal(err)
	}
	if d := time.Duration(clock.Now() - start); d != 5*u.create {
		t.Errorf("Upload of the reserved pages took %v, want %v: five creations and no texels (nothing is placed in them)", d, 5*u.create)
	}
	if st := lib.Stats(); st.Pages != 5 || st.Textures != 5 {
		t.Fatalf("after Reserve and Upload: %d pages, %d textures; want 5 and 5 (four for the images, one spare)", st.Pages, st.Textures)
	}
	u.creates = 0
	before := lib.UploadStats()
	step := func() bool {
		start := clock.Now()
		pending, err := lib.UploadStep(u)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Duration(clock.Now() - start); u.creates > 0 || d > budget+band {
			t.Fatalf("step %d took %v and created %d textures, want none and at most %v", lib.UploadStats().Calls, d, u.creates, budget+band)
		}
		return pending
	}
	for i := range 16 {
		if _, err := lib.AddImage(fmt.Sprint("tile", i), pattern(200, 200, uint8(i))); err != nil {
			t.Fatal(err)
		}
		step()
	}
	for n := 0; step(); n++ {
		if n > 200 {
			t.Fatal("still pending after 200 steps")
		}
	}
	if st := lib.Stats(); st.Pages != 5 || st.Textures != 5 {
		t.Errorf("after the images: %d pages, %d textures; want 5 and 5", st.Pages, st.Textures)
	}
	if st := lib.UploadStats().Since(before); st.Creates != 0 || st.CreateTime != 0 || st.Bytes < 16*200*200*4 || st.Calls == 0 {
		t.Errorf("stats of the steps after the setup's Upload: %+v; want no creation and at least %d bytes", st, 16*200*200*4)
	}
}

func TestReserveErrors(t *testing.T) {
	opts := assets.DefaultOptions()
	opts.PageSize = 512
	lib := newLib(t, opts)
	for _, c := range []struct {
		count, w, h int
		want        error
	}{
		{-1, 10, 10, media.ErrInvalid},
		{assets.MaxReserve + 1, 10, 10, media.ErrInvalid},
		{1, 0, 10, assets.ErrEmpty},
		{1, 10, 1 << 20, media.ErrTooLarge},
		{1, 511, 10, media.ErrInvalid}, // with extrusion and padding, wider than a page
	} {
		err := lib.Reserve(c.count, c.w, c.h)
		if !errors.Is(err, c.want) {
			t.Errorf("Reserve(%d, %d, %d) = %v, want %v", c.count, c.w, c.h, err, c.want)
		}
	}
	if st := lib.Stats(); st.Pages != 0 {
		t.Errorf("%d pages after refused reservations, want 0", st.Pages)
	}
	if err := lib.Reserve(0, 10, 10); err != nil {
		t.Errorf("Reserve(0, 10, 10) = %v, want nil", err)
	}
}
