// Package window holds the options of a game's window and the one
// statement of their ranges. Every platform that opens a window takes an
// [Options] (runtime/glfwplatform's window; runtime/webplatform's canvas,
// whose CSS size is the window's logical size, so MaxSide bounds it too),
// and the configuration's window table is one; all ask [Options.Validate],
// which reports each invalid field as an *option.Error with its allowed
// range, all at once.
//
//	o := window.DefaultOptions()
//	o.Width, o.Height = 1920, 1080
//	o.AspectRatio = window.Ratio{Width: 16, Height: 9}
//	if err := o.Validate(); err != nil {
//		return err
//	}
//
// The package is pure Go: it describes a window and opens none.
package window
