package option_test

import (
	"fmt"
	"strings"

	"github.com/metronome-go/metronome/option"
)

func ExampleEcho() {
	fmt.Println(option.Echo("fixed"))
	fmt.Println(option.Echo(strings.Repeat("A", 900_000)))
	// Output:
	// fixed
	// "AAAAAAAAAAAAAAAAAAAAAAAA…" (900,000 bytes)
}
