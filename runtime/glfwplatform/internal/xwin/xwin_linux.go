package xwin

/*
#cgo LDFLAGS: -lX11
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

static int normal_hints(const char *name, unsigned long win, long *flags, int *out) {
	Display *d = XOpenDisplay(name);
	if (d == NULL) {
		return 1;
	}
	XSizeHints *h = XAllocSizeHints();
	long supplied = 0;
	Status ok = XGetWMNormalHints(d, win, h, &supplied);
	if (ok) {
		*flags = h->flags;
		out[0] = h->min_width;
		out[1] = h->min_height;
		out[2] = h->max_width;
		out[3] = h->max_height;
		out[4] = h->min_aspect.x;
		out[5] = h->min_aspect.y;
		out[6] = h->max_aspect.x;
		out[7] = h->max_aspect.y;
	}
	XFree(h);
	XCloseDisplay(d);
	return ok ? 0 : 2;
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Hints are a window's WM_NORMAL_HINTS: the size bounds and aspect ratio
// it asks the window manager to keep. A bound or ratio the window does not
// set is zero.
type Hints struct {
	MinWidth, MinHeight, MaxWidth, MaxHeight int
	// MinAspect and MaxAspect are width:height ratios as {x, y}.
	MinAspect, MaxAspect [2]int
}

// NormalHints reads window win's WM_NORMAL_HINTS on the named display.
func NormalHints(display string, win uint64) (Hints, error) {
	name := C.CString(display)
	defer C.free(unsafe.Pointer(name))
	var flags C.long
	var out [8]C.int
	switch C.normal_hints(name, C.ulong(win), &flags, &out[0]) {
	case 0:
	case 1:
		return Hints{}, fmt.Errorf("xwin: cannot open display %q", display)
	default:
		return Hints{}, fmt.Errorf("xwin: window %#x has no WM_NORMAL_HINTS", win)
	}
	var h Hints
	if flags&C.PMinSize != 0 {
		h.MinWidth, h.MinHeight = int(out[0]), int(out[1])
	}
	if flags&C.PMaxSize != 0 {
		h.MaxWidth, h.MaxHeight = int(out[2]), int(out[3])
	}
	if flags&C.PAspect != 0 {
		h.MinAspect = [2]int{int(out[4]), int(out[5])}
		h.MaxAspect = [2]int{int(out[6]), int(out[7])}
	}
	return h, nil
}
