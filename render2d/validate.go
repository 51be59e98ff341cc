package render2d

import (
	"errors"
	"fmt"
	"math"

	"github.com/metronome-go/metronome/geom"
)

// Resources answers which handles a renderer knows. Renderers pass
// themselves to [ValidateFrame].
type Resources interface {
	// HasTexture reports whether h is a live, non-zero texture.
	HasTexture(h TextureHandle) bool
	// HasMaterial reports whether h is a live, non-zero material.
	HasMaterial(h MaterialHandle) bool
	// TargetTexture returns the texture of a live, non-zero target, or
	// false.
	TargetTexture(h TargetHandle) (TextureHandle, bool)
}

// maxFrameErrors bounds how many problems ValidateFrame lists, so that a
// frame of a million bad packets does not produce a million-line error.
const maxFrameErrors = 16

// ValidateFrame checks every pass and packet of f against res: handles must
// be live (the zero texture, material and target are always valid), blend
// modes known, zooms (current and previous) positive and finite, viewports
// non-negative, camera sizes zero or positive and finite, the present's
// alpha in [0, 1], and no packet may sample the texture of the target its
// pass draws into. It returns nil or every problem found (at most 16
// listed, then a count), joined, each a [*PassError] or [*PacketError] but
// for the alpha's. It allocates nothing for a valid frame.
func ValidateFrame(f *Frame, res Resources) error {
	var errs []error
	more := 0
	add := func(err error) {
		if len(errs) < maxFrameErrors {
			errs = append(errs, err)
		} else {
			more++
		}
	}
	if a := f.Present.Alpha; !(a >= 0 && a <= 1) {
		add(fmt.Errorf("render2d: Frame.Present.Alpha is %v, want 0 to 1", a))
	}
	for pi := range f.Passes {
		p := &f.Passes[pi]
		var targetTex TextureHandle
		if !p.Target.IsZero() {
			tt, ok := res.TargetTexture(p.Target)
			if !ok {
				add(&PassError{Pass: pi, Err: fmt.Errorf("%w: %v", ErrStaleHandle, p.Target)})
			}
			targetTex = tt
		}
		if z := p.Camera.Zoom; badZoom(z) {
			add(&PassError{Pass: pi, Err: fmt.Errorf("camera zoom is %v, want a finite value > 0 (0 means 1)", z)})
		}
		if z := p.PrevCamera.Zoom; p.PrevCamera.Set && badZoom(z) {
			add(&PassError{Pass: pi, Err: fmt.Errorf("previous camera zoom is %v, want a finite value > 0 (0 means 1)", z)})
		}
		if v := p.Camera.Viewport; v.W < 0 || v.H < 0 {
			add(&PassError{Pass: pi, Err: fmt.Errorf("camera viewport size is %vx%v, want both >= 0", v.W, v.H)})
		}
		if s := p.Camera.Size; s != (geom.Vec2{}) && (badSide(s.X) || badSide(s.Y)) {
			add(&PassError{Pass: pi, Err: fmt.Errorf("camera size is %vx%v, want both finite and > 0, or both 0 (the viewport's size)", s.X, s.Y)})
		}
		var last BatchKey
		lastOK := false
		for qi := range p.Packets {
			q := &p.Packets[qi]
			if q.IsShape() {
				if err := checkMesh(q, p); err != nil {
					add(&PacketError{Pass: pi, Packet: qi, Err: err})
				}
			}
			k := q.Key()
			if lastOK && k == last {
				continue // same state as the previous packet: already checked
			}
			if !q.Texture.IsZero() {
				if !res.HasTexture(q.Texture) {
					add(&PacketError{Pass: pi, Packet: qi, Err: fmt.Errorf("%w: %v", ErrStaleHandle, q.Texture)})
				} else if q.Texture == targetTex {
					add(&PacketError{Pass: pi, Packet: qi, Err: fmt.Errorf("%v is the texture of the pass's own target %v: a pass cannot sample what it draws into", q.Texture, p.Target)})
				}
			}
			if !q.Material.IsZero() && !res.HasMaterial(q.Material) {
				add(&PacketError{Pass: pi, Packet: qi, Err: fmt.Errorf("%w: %v", ErrStaleHandle, q.Material)})
			}
			if q.Blend >= BlendModeCount {
				add(&PacketError{Pass: pi, Packet: qi, Err: fmt.Errorf("blend mode %d, want 0 to %d", q.Blend, BlendModeCount-1)})
			}
			last, lastOK = k, true // a run of identical bad packets is reported once
		}
	}
	if more > 0 {
		errs = append(errs, fmt.Errorf("render2d: and %d more problems", more))
	}
	return errors.Join(errs...)
}

func badZoom(z float32) bool { return z < 0 || math.IsNaN(float64(z)) || math.IsInf(float64(z), 0) }

func badSide(v float32) bool { return !(v > 0) || math.IsInf(float64(v), 0) }

// checkMesh reports what is wrong with shape packet q of pass p: a mesh
// outside the pass's vertices or indices, an index outside its vertices,
// a texture or material (shapes have neither).
func checkMesh(q *DrawPacket2D, p *Pass) error {
	m := q.Mesh
	switch {
	case !q.Texture.IsZero() || !q.Material.IsZero():
		return fmt.Errorf("shape with %v and %v: shapes sample no texture and use the built-in material, want both zero", q.Texture, q.Material)
	case m.IndexCount%3 != 0:
		return fmt.Errorf("shape mesh has %d indices, want a multiple of 3 (whole triangles)", m.IndexCount)
	case uint64(m.FirstIndex)+uint64(m.IndexCount) > uint64(len(p.Indices)):
		return fmt.Errorf("shape mesh indices %d to %d, want within the pass's %d", m.FirstIndex, uint64(m.FirstIndex)+uint64(m.IndexCount), len(p.Indices))
	case uint64(m.FirstVertex)+uint64(m.VertexCount) > uint64(len(p.Vertices)):
		return fmt.Errorf("shape mesh vertices %d to %d, want within the pass's %d", m.FirstVertex, uint64(m.FirstVertex)+uint64(m.VertexCount), len(p.Vertices))
	}
	for _, ix := range p.Indices[m.FirstIndex : m.FirstIndex+m.IndexCount] {
		if ix >= m.VertexCount {
			return fmt.Errorf("shape mesh index %d, want below its %d vertices", ix, m.VertexCount)
		}
	}
	return nil
}
