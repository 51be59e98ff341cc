// Command printid prints the code identity of its own build as a game's
// match computes it: the framework's generated sum, this file as the game's
// source, and the modules this platform's build of the framework and its
// WebRTC network link.
package main

import (
	"embed"
	"fmt"
	"os"

	_ "github.com/metronome-go/metronome/framework" // link what a game links
	"github.com/metronome-go/metronome/internal/srcid"
	_ "github.com/metronome-go/metronome/rollback/netplay/webrtc" // and the network a page joins with
)

//go:embed *.go
var source embed.FS

func main() {
	id, err := srcid.Of(source)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s sum %x files %d unsummed %q warnings %d\n", id.Version(), id.Sum, id.Files, id.Unsummed, len(id.Warnings()))
}
