package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEveryCommandHelp builds every command of the module (every main
// package under cmd/) and runs it with --help: each must exit with status
// 0, print its usage with at least one flag, and not panic. A command added
// later is covered without touching this test.
func TestEveryCommandHelp(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the commands: %v", err)
	}
	root := filepath.Join("..", "..")
	list := exec.Command(goTool, "list", "-f", "{{if eq .Name \"main\"}}{{.ImportPath}}{{end}}", "./cmd/...")
	list.Dir = root
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list ./cmd/...: %v", err)
	}
	commands := strings.Fields(string(out))
	if len(commands) < 4 {
		t.Fatalf("go list found %d commands (%q), want at least demo, newgame, bunnymark and pacecheck", len(commands), commands)
	}
	bin := t.TempDir()
	build := exec.Command(goTool, append([]string{"build", "-o", bin + string(filepath.Separator)}, commands...)...)
	build.Dir = root
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	for _, pkg := range commands {
		name := pkg[strings.LastIndexByte(pkg, '/')+1:]
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(bin, name), "--help")
			var output bytes.Buffer
			cmd.Stdout, cmd.Stderr = &output, &output
			err := cmd.Run()
			text := output.String()
			if err != nil {
				t.Errorf("%s --help: %v, want exit status 0; output:\n%s", name, err, text)
			}
			if strings.Contains(text, "panic") {
				t.Errorf("%s --help panics:\n%s", name, text)
			}
			if !strings.Contains(strings.ToLower(text), "usage") || !strings.Contains(text, "\n  -") {
				t.Errorf("%s --help prints no usage with flags:\n%s", name, text)
			}
		})
	}
}
