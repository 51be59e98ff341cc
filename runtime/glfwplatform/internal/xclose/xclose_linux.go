package xclose

/*
#cgo LDFLAGS: -lX11
#include <stdlib.h>
#include <X11/Xlib.h>

static int send_delete(const char *name, unsigned long win) {
	Display *d = XOpenDisplay(name);
	if (d == NULL) {
		return 1;
	}
	XEvent ev = {0};
	ev.xclient.type = ClientMessage;
	ev.xclient.window = win;
	ev.xclient.message_type = XInternAtom(d, "WM_PROTOCOLS", False);
	ev.xclient.format = 32;
	ev.xclient.data.l[0] = XInternAtom(d, "WM_DELETE_WINDOW", False);
	ev.xclient.data.l[1] = CurrentTime;
	Status ok = XSendEvent(d, win, False, NoEventMask, &ev);
	XFlush(d);
	XCloseDisplay(d);
	return ok ? 0 : 2;
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Request sends WM_DELETE_WINDOW to window win on the named display.
func Request(display string, win uint64) error {
	name := C.CString(display)
	defer C.free(unsafe.Pointer(name))
	switch C.send_delete(name, C.ulong(win)) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("xclose: cannot open display %q", display)
	default:
		return fmt.Errorf("xclose: XSendEvent to window %#x failed", win)
	}
}
