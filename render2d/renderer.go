package render2d

import (
	"errors"
	"fmt"
	"image"
)

// Renderer draws frames and owns the GPU resources they refer to.
//
// Every method must be called on the graphics thread, the thread on which
// the renderer was created and its context is current (the caller of the
// runtime's Run). A renderer is not safe for concurrent use; the simulation
// goroutine never calls it and reaches it only through published frames and
// the platform dispatcher.
type Renderer interface {
	// CreateTexture uploads img (premultiplied, as image.RGBA is) and
	// returns its handle. Images wider or taller than MaxTextureSize, or
	// empty, are refused. An img with no Pix (only its Rect set) creates a
	// texture of that size without sending texels, for a caller that fills
	// it later with UpdateTexture (an atlas page sent in bands); its
	// texels are undefined until then. (A clear on the GPU would do, but
	// switching framebuffers for it stalls software GL for tens of
	// milliseconds on a busy machine.)
	CreateTexture(img *image.RGBA, opts TextureOptions) (TextureHandle, error)
	// UpdateTexture replaces the texels of h in the rectangle of img's
	// size at (x, y). The rectangle must lie inside the texture.
	UpdateTexture(h TextureHandle, x, y int, img *image.RGBA) error
	// ReleaseTexture frees h. Releasing a stale or zero handle is an error
	// wrapping ErrStaleHandle. A texture that belongs to a render target is
	// released with the target, not here.
	ReleaseTexture(h TextureHandle) error
	// TextureSize returns the size of h in texels.
	TextureSize(h TextureHandle) (width, height int, err error)
	// MaxTextureSize is the largest width or height a texture may have.
	MaxTextureSize() int

	// CreateRenderTarget makes an offscreen target of the given size and
	// returns it with the texture that holds its pixels, which later passes
	// (or frames) may sample. Its contents start transparent black.
	CreateRenderTarget(width, height int, opts TextureOptions) (TargetHandle, TextureHandle, error)
	// ReleaseRenderTarget frees the target and its texture.
	ReleaseRenderTarget(h TargetHandle) error

	// CreateMaterial compiles a custom material. Errors carry the
	// compiler's log and the material's name.
	CreateMaterial(desc MaterialDesc) (MaterialHandle, error)
	// ReleaseMaterial frees a material.
	ReleaseMaterial(h MaterialHandle) error

	// SetFramebufferSize tells the renderer the size of the default
	// framebuffer in pixels; the platform calls it at start and on resize.
	SetFramebufferSize(width, height int)
	// Render draws the passes of f in order, every packet and camera that
	// has a previous placement at f.Present.Alpha between it and the
	// current one, as [DrawPacket2D.Resolved] and
	// [PassDesc.ResolvedCamera] compute. It validates the whole frame
	// first (handles, blend modes, cameras, alpha) and draws nothing if any
	// of it is invalid, reporting every problem. The platform calls it at
	// every present, with the same frame until a newer one arrives, setting
	// f.Present each time. Presenting the result (swapping buffers) is the
	// platform's job, not the renderer's.
	Render(f *Frame) error
	// ReadPixels copies rectangle r of a target (zero: the default
	// framebuffer) into a new premultiplied image with rows from the top.
	// It is meant for tests and screenshots, not for every frame. For the
	// default framebuffer call it after Render and before the platform
	// presents: after a buffer swap the back buffer's contents are
	// undefined.
	ReadPixels(target TargetHandle, r image.Rectangle) (*image.RGBA, error)

	// Close frees every resource. Calls after Close fail with ErrClosed;
	// Close itself may be repeated.
	Close() error
}

// Filter selects how a texture is sampled between texels.
//
// Linear is the default everywhere: the zero TextureOptions, and so the
// atlas pages and sprite sheets of an assets.Library built with
// assets.DefaultOptions (a framework game's, unless its configuration's
// render.filter says "nearest"). Pixel art scaled up wants nearest.
type Filter uint8

const (
	// FilterLinear blends neighbouring texels (the zero value).
	FilterLinear Filter = iota
	// FilterNearest takes the closest texel: crisp pixel art.
	FilterNearest
)

var filterNames = [...]string{"linear", "nearest"}

func (f Filter) String() string {
	if int(f) < len(filterNames) {
		return filterNames[f]
	}
	return fmt.Sprintf("Filter(%d)", uint8(f))
}

// ParseFilter reads a filter's name: "linear" or "nearest".
func ParseFilter(s string) (Filter, error) {
	for i, n := range filterNames {
		if n == s {
			return Filter(i), nil
		}
	}
	return 0, fmt.Errorf("render2d: unknown filter %q, want \"linear\" or \"nearest\"", s)
}

// MarshalText implements encoding.TextMarshaler.
func (f Filter) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with [ParseFilter].
func (f *Filter) UnmarshalText(b []byte) error {
	v, err := ParseFilter(string(b))
	if err == nil {
		*f = v
	}
	return err
}

// Wrap selects what a texture shows outside its edges.
type Wrap uint8

const (
	// WrapClamp repeats the edge texels (the zero value).
	WrapClamp Wrap = iota
	// WrapRepeat tiles the texture.
	WrapRepeat
)

// TextureOptions configure a texture. The zero value means linear
// filtering and clamped edges.
type TextureOptions struct {
	Filter Filter
	Wrap   Wrap
}

// Validate reports every out-of-range field.
func (o TextureOptions) Validate() error {
	var errs []error
	if o.Filter > FilterNearest {
		errs = append(errs, fmt.Errorf("render2d: TextureOptions.Filter is %d, want FilterLinear (0) or FilterNearest (1)", o.Filter))
	}
	if o.Wrap > WrapRepeat {
		errs = append(errs, fmt.Errorf("render2d: TextureOptions.Wrap is %d, want WrapClamp (0) or WrapRepeat (1)", o.Wrap))
	}
	return errors.Join(errs...)
}

// MaterialDesc describes a custom material.
//
// Shade is the body of a GLSL 4.10 function that the GL renderer compiles
// into its sprite fragment shader:
//
//	vec4 shade(sampler2D tex, vec2 uv, vec4 texel, vec4 tint, vec4 params, vec4 pass0, vec4 pass1)
//
// texel is the premultiplied texture colour at uv, tint the packet's
// straight tint, params the packet's [DrawPacket2D.Params] and pass0/pass1
// the pass's [PassDesc.Params]. It returns a premultiplied colour, which is
// then blended with the packet's blend mode. The built-in material is
// `return texel * vec4(tint.rgb * tint.a, tint.a);`.
type MaterialDesc struct {
	// Name appears in error messages.
	Name string
	// Shade is the function body described above.
	Shade string
}

// Validate reports a missing name or body.
func (d MaterialDesc) Validate() error {
	var errs []error
	if d.Name == "" {
		errs = append(errs, errors.New("render2d: MaterialDesc.Name is empty, want a name for error messages"))
	}
	if d.Shade == "" {
		errs = append(errs, fmt.Errorf("render2d: material %q: MaterialDesc.Shade is empty, want a GLSL function body", d.Name))
	}
	return errors.Join(errs...)
}

var (
	// ErrStaleHandle reports a handle that was never issued by this
	// renderer, was released, or names the zero resource where a real one is
	// required.
	ErrStaleHandle = errors.New("render2d: stale or unknown handle")
	// ErrClosed reports use of a closed renderer.
	ErrClosed = errors.New("render2d: renderer closed")
)

// PacketError locates an invalid packet in a frame.
type PacketError struct {
	Pass, Packet int
	Err          error
}

func (e *PacketError) Error() string {
	return fmt.Sprintf("render2d: pass %d packet %d: %v", e.Pass, e.Packet, e.Err)
}

func (e *PacketError) Unwrap() error { return e.Err }

// PassError locates an invalid pass description in a frame.
type PassError struct {
	Pass int
	Err  error
}

func (e *PassError) Error() string { return fmt.Sprintf("render2d: pass %d: %v", e.Pass, e.Err) }

func (e *PassError) Unwrap() error { return e.Err }
