// Package webplatform runs a Metronome game in a web page: the platform
// adapters of [runtime.Adapters] for GOOS=js GOARCH=wasm, through
// syscall/js, drawing with render2d/glrender (its WebGL2 build).
//
// # The page as a window
//
// The canvas is the window. Its CSS size is the window size and its
// framebuffer that size times devicePixelRatio, followed at every poll, so
// a canvas the page's style stretches resizes the game as a window would.
// A hidden tab (document.visibilityState) is a hidden window: the runtime
// slows to its hidden rate and presents nothing, and the long gap when the
// tab comes back is a suspension, as on the desktop. The page's focus is
// the window's focus. [Display.SetFullscreen] goes through the Fullscreen
// API, which browsers grant only during a user gesture: a request made
// outside one is made again at the next key or click.
//
// # Start
//
// A page may make the canvas's WebGL2 context before the program runs;
// New's getContext then returns it, and glrender checks it has the
// attributes it would have asked for. New marks its steps on the page's
// performance timeline (metronome:canvas, after the sound device; then
// metronome:renderer and metronome:warm-end, and metronome:first-drawn at
// the first present; see internal/pagemark) for bench/firstpresent
// -marks.
//
// Linking the package defers the program's first garbage collection to
// its first present (or until the heap reaches 64 MB, if that comes
// first): a browser compiles each function of the module at its first
// call, and a collection in the middle of the start would compile and
// run the collector before the first frame. The program's own GOGC and
// GOMEMLIMIT (go.env) hold from then on; GOGC=off is left alone.
//
// # Presents
//
// [Presenter.Present] hands the browser its event loop back until the
// next requestAnimationFrame, which paces presents as vsync does a
// desktop window (the runtime's frame pacer still reports each frame's
// outcome); the interval between animation frames, measured at start, is
// the refresh the runtime follows. The intervals a page saw while the
// module loaded (cmd/webgame's keeps globalThis.metronomeRefresh) count:
// the platform waits only for the ones missing before the first present.
//
// # Input and time
//
// Keyboard (by KeyboardEvent.code: the physical key, as GLFW's key codes),
// mouse buttons, cursor, wheel, text and touch (the first touch as the left
// button) become the same records as the desktop's input/glfwinput makes,
// each at the instant of its event's timeStamp on timing's clock: in a
// wasm program timing.Now reads performance.now(), the clock event
// timestamps are taken on. Browsers coarsen performance.now() (to 100 µs
// in Chromium, 1 ms or more in other browsers and with privacy settings);
// a cross-origin isolated page (COOP and COEP headers, which cmd/webgame's
// server sends) gets the finer resolution. New measures the step it gets
// ([timing.Resolution]) and hands it, with the WebGL device's name and
// the renderer's draw path, to the timing report's platform section
// ([runtime.PlatformReport]).
//
// The Gamepad API has no events for a pad's buttons and axes: at every
// poll (once per animation frame) the source reads the first pad with the
// standard mapping and, when the pad's timestamp has moved, records its
// button edges and axis motion at the instant of that timestamp, mapped as
// input/glfwinput maps a GLFW gamepad (buttons 6 and 7, the triggers,
// become the trigger axes, 0 to 1). As on the desktop, a pad is read only
// while the page has focus, and a pad that goes away releases its buttons.
// Browsers show a page its pads only after a button press on one, and
// only in a secure context (https, or localhost as cmd/webgame serves).
//
// # Threads
//
// A wasm program has one thread. Every method runs on the program's main
// goroutine, which the framework runs the game on; the page's event
// listeners run while it waits and only queue what they saw.
//
// # Network
//
// Go's js/wasm network is an in-memory stand-in: a page has no socket to
// listen on. The framework refuses --host and --dedicated in a page with a
// message saying so (its Flags.Validate); a lobby that lets a page host a
// room, and joining a desktop host over WebRTC, are to come.
//
// # Test hook
//
// A build with the tag metronome_testhook (go build -tags
// metronome_testhook; cmd/webgame --tags metronome_testhook) gives the
// page a global metronome object that counts presents, key and mouse
// records and gamepad records, says when the first present happened,
// lists the last frame's sprites and calls the page's metronome.onpresent
// after each present with the timestamp of the animation frame that
// composites it, for browser tests and measurements (cmd/webgame's). A
// game's own build has none of it: no global, no wrapped renderer, no
// work per present.
package webplatform
