// Command decodesnapshot decodes the snapshot in the file its argument
// names: TestDecodeLinksNoJSON builds it to see what decoding links.
package main

import (
	"fmt"
	"os"

	"github.com/metronome-go/metronome/ecs"
)

func main() {
	b, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	a, err := ecs.NewApp(ecs.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var s ecs.Snapshot
	if err := a.DecodeSnapshot(&s, b); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
