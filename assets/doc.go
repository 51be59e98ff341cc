// Package assets loads a game's images, sprite sheets and fonts, packs them
// into atlas textures and lays out text, all on the simulation side, so
// that a frame carries nothing but plain [render2d.DrawPacket2D] values.
//
// # Loading
//
// Everything loads from an [fs.FS]: an embed.FS in a game, an
// [testing/fstest.MapFS] in a test, os.DirFS for a directory on disk. Errors are
// [*media.Error] values naming the file and the problem, wrapping a sentinel
// ([media.ErrCorrupt], [ErrEmpty], [media.ErrTooLarge], [fs.ErrNotExist], ...). A
// failed load changes nothing, so assets already loaded stay usable.
//
// # Background loading
//
// [Library.StartLoad] loads a list of files ([ImageFile], [SheetFile],
// [FontFile], [GeneratedImage]) without stalling the game: workers read,
// decode and place them in the atlas, in the order of the list, the
// simulation owner receives each file's handle, and the graphics thread
// uploads the atlas at the end. The returned [Load] is polled from updates
// without blocking: [Load.Progress] for a progress bar, [Load.Done],
// [Load.Err], then the handles ([Load.Image], [Load.Sheet], [Load.Font]),
// which resolve with [Library.Region] at once. [Load.Cancel] stops it and
// releases what it placed.
//
// The runtime sits above this package, so a load asks for its work through
// an [Executor]: run a job on a worker, post a result to the simulation
// owner, run a function on the graphics thread. Package assets/assetsrt
// implements it on a runtime session (worker group, mailbox, platform
// dispatcher). The [Load] belongs to the simulation owner alone: workers
// reach the atlas through the library's lock and hand each file's outcome
// over whole through a post, in list order. So the atlas layout, the
// handles and the progress at each delivery are those of a foreground
// load of the same list, however the workers finish, and a replay gets
// the same ones (provided the game adds no images of its own while the
// load runs). [PatternFiles] generates a deliberately large set of images,
// for loading screens and stress tests.
//
// # Atlas
//
// [Library.LoadImage] and [Library.LoadSheet] place every image (every
// frame and named region of a sheet) into shared atlas pages with a skyline
// [Packer], padded and with extruded edges so linear filtering never bleeds
// between neighbours. Consecutive sprites on one page share a texture and
// the renderer draws them in one batch. An image too large for a page gets
// a texture of its own.
//
// # Handles
//
// [Image], [Sheet] and [Font] are generation-checked values. Once an
// asset is released (or an image reloaded with [Library.Reload]), every
// copy of its old handle fails with [ErrStale] instead of drawing the wrong
// image. Atlas space is never reused, so a frame published before a release
// still draws what it drew; a page whose every entry is released is freed.
//
// # Text
//
// Go Regular is embedded ([Library.DefaultFont]), so text works with no
// file; font files load at any size with [Library.LoadFont], and bytes
// already in the program (go:embed, or another Go face's TTF from its
// golang.org/x/image/font/gofont package) with [Library.ParseFont]. A game
// links only the faces it names: each is a few hundred kilobytes of a
// browser build. [Library.AppendText] and [Library.DrawText] lay text
// out (UTF-8, kerning, line breaks, wrapping, alignment) into glyph packets
// and [Library.MeasureText] measures it. Glyphs are rasterised into the
// atlas the first time they are used; once cached, layout allocates nothing.
//
// Both kinds of OpenType outline load: TrueType outlines (quadratic
// curves: .ttf files and some .otf) through the package's own reader, and
// CFF outlines (PostScript cubic curves: most .otf files) through
// golang.org/x/image/font/sfnt, which a game links by importing package
// assets/cff (import _ "github.com/metronome-go/metronome/assets/cff";
// without it such a font is refused with [media.ErrUnsupported] naming the
// package: the reader is a few hundred kilobytes of a browser build). They
// share the rasteriser, the glyph and
// kerning caches and the layout code, so every text feature works the same
// with either. Kerning comes from the kern table for TrueType fonts, and
// from the GPOS pair adjustments or the kern table for CFF fonts. Font
// collections (.ttc, .otc) are refused with [media.ErrUnsupported]; a damaged font
// of either kind fails to load with [media.ErrCorrupt] and the file's name.
//
//	font, err := lib.LoadFont(gameFS, "fonts/title.otf", 32) // CFF: with assets/cff imported
//
// # Sounds
//
// Sounds live in the library next to images, under [Sound] handles:
// generation-checked values like [Image], plain data a component can hold
// (ecs.SoundSource does) where a *audio.Sound would put a pointer into the
// world hash. [Library.LoadSound] reads a WAV (8, 16, 24 or 32-bit PCM,
// 32 or 64-bit float), Ogg Vorbis or MP3 file from any [fs.FS] and decodes
// it whole, the format sniffed from the content, not the name;
// [Library.AddSound] keeps a sound made in code (an audio.Synth). A sound
// is resolved when it is played, with [Library.AudioSound]; a released or
// reloaded handle ([Library.ReleaseSound], [Library.ReloadSound]) fails
// there with [ErrStale], while voices already playing the old samples
// finish with them. Decoding errors are [*media.Error] values naming the file
// and wrapping the sentinel the audio package found ([media.ErrCorrupt],
// [media.ErrUnsupported], [media.ErrTooLarge]: package media's, which both
// packages share); a failed load leaves the library as it was. Decoding
// runs outside the library's lock, so a worker can load sounds while the
// graphics thread uploads. Music too long to decode whole (the audio
// package caps a sound at audio.MaxSoundFrames) is streamed with
// audio.Player.OpenStream instead.
//
//	shot, err := lib.LoadSound(gameFS, "sfx/shot.ogg") // at setup or on a worker
//	// in a system: ctx.PlaySound(shot, audio.DefaultParams())
//
// # Threads and uploads
//
// A [Library] is safe for concurrent use. The simulation goroutine loads
// assets, resolves handles and lays out text; the graphics thread calls
// [Library.Upload] with the renderer, which creates page textures, copies
// new texels and frees retired pages. One mutex orders the two, and the
// rule that makes on-demand glyphs safe is the order on the graphics
// thread: take the frame to render, call Upload, then Render. Anything the
// simulation rasterised before publishing that frame is then on the GPU.
//
// Upload also keeps one empty page with a texture ready, so new glyphs and
// images normally land in a page the GPU already knows. Should one frame
// need more new pages than that, the glyphs in them are left out of that
// frame ([TextBounds.Pending]) and [Library.Region] reports [ErrPending]
// until the next Upload. At shutdown, [Library.ReleaseTextures] frees the
// textures on the graphics thread.
//
// Uploads submitted through the runtime's platform dispatcher also run on
// the graphics thread and suit loading screens and streamed images (check
// [Library.Region] for [ErrPending] until one has run), but a dispatcher
// batch is not tied to the frame about to be drawn, so for glyphs
// rasterised on demand the upload must come right before Render.
// [UploadingRenderer] packages that rule: it wraps the renderer the runtime
// drives and runs [Library.UploadStep] inside every Render, and
// ReleaseTextures inside Close, so a game needs no hook of its own.
//
// # Upload budget
//
// A large upload in one frame makes that frame late: a background load's
// atlas pages are megabytes. [Library.UploadStep] therefore sends at most
// [Options.UploadBudget] of texels per frame (default 2 ms): small changes
// such as new glyphs go whole, new pages are created without texels and
// what was placed in them follows in 64 KiB bands. Texels not yet
// sent are pending: [Library.Region] reports [ErrPending] for an image
// there and text layout leaves such glyphs out, so nothing is drawn from
// texels the GPU lacks; a [Load] is done only once its pages are all sent.
// [Library.Upload] sends everything at once, for a game's setup.
// Creating a page's texture costs software GL a page of fresh memory (12-30
// ms for 1024x1024 on llvmpipe), so a step creates one only before it sends
// a band, and the spare page on a step with nothing else to send; a game
// that knows what a load will place calls [Library.Reserve] in its setup,
// and the setup's Upload creates those pages before the first frame.
// A page reserved after that upload gets its texture from a budgeted step
// in the middle of the load, and that frame pays the creation.
// [Library.UploadStats] says what the uploads cost, measured where they
// run: the texture creations, the texel sends and the waits for the
// library's lock apart. [Load.Stats] says what the workers spent decoding,
// waiting for the lock, packing and copying.
//
// Placing an image holds the library's lock only to claim its space and
// to register it: the pixels are copied into the page outside the lock,
// and an upload leaves the image's cell alone while the copy runs. A worker
// whose thread is preempted in the middle of a copy (a background pool's
// threads run at a lower priority) then never keeps the graphics thread
// or the simulation's text layout waiting.
//
//	lib, _ := assets.NewLibrary(assets.DefaultOptions())
//	hero, err := lib.LoadImage(gameFS, "sprites/hero.png") // simulation or init
//	font, _ := lib.DefaultFont(16)
//	_ = lib.Upload(renderer)                              // graphics thread
//	p, err := lib.Sprite(hero, geom.Vec2{X: 10, Y: 20})
//	pass.Draw(p)
//	lib.DrawText(pass, font, "Score: 10", assets.TextOptions{})
package assets
