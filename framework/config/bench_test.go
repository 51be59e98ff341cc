package config_test

import (
	"testing"

	"github.com/metronome-go/metronome/framework/config"
)

// Reading a configuration happens once at start; these keep its cost in
// view (the fuzz target runs it thousands of times a second).
func BenchmarkParseDefaults(b *testing.B) {
	doc := config.DefaultsTOML()
	base := config.Default()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := config.Parse("defaults.toml", doc, base); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	c := config.Default()
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Validate(""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEffectiveTOML(b *testing.B) {
	c := config.Default()
	b.ReportAllocs()
	for b.Loop() {
		c.EffectiveTOML()
	}
}
