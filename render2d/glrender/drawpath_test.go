package glrender_test

import (
	"testing"

	"github.com/metronome-go/metronome/render2d/glrender"
)

func TestChooseDrawPath(t *testing.T) {
	for _, c := range []struct {
		device string
		want   glrender.DrawPath
	}{
		{"ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)", glrender.DrawBatched},
		{"Google SwiftShader", glrender.DrawBatched},
		{"llvmpipe (LLVM 15.0.7, 256 bits)", glrender.DrawInstanced},
		{"ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)", glrender.DrawInstanced},
		{"WebKit WebGL", glrender.DrawInstanced},
		{"", glrender.DrawInstanced},
	} {
		if got := glrender.ChooseDrawPath(c.device); got != c.want {
			t.Errorf("ChooseDrawPath(%q) = %v, want %v", c.device, got, c.want)
		}
	}
}

func TestDrawPathString(t *testing.T) {
	for p, want := range map[glrender.DrawPath]string{glrender.DrawInstanced: "instanced", glrender.DrawBatched: "batched", 7: "DrawPath(7)"} {
		if got := p.String(); got != want {
			t.Errorf("DrawPath(%d).String() = %q, want %q", uint8(p), got, want)
		}
	}
}
