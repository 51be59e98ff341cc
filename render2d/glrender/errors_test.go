//go:build !js

package glrender_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

func TestMaterialCompileErrorNamesMaterialAndLog(t *testing.T) {
	r := gltest.Renderer(t)
	_, err := r.CreateMaterial(render2d.MaterialDesc{Name: "broken", Shade: "return undefined_thing;"})
	if err == nil {
		t.Fatal("CreateMaterial with invalid GLSL succeeded")
	}
	for _, want := range []string{"glrender", `material "broken"`, "fragment shader", "undefined_thing"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// The renderer stays usable.
	if err := r.Render(&render2d.Frame{Passes: []render2d.Pass{{Packets: []render2d.DrawPacket2D{render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{}, geom.Vec2{X: 4, Y: 4})}}}}); err != nil {
		t.Errorf("Render after a failed material: %v", err)
	}
}
