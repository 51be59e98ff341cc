// Command wasmpkgs sums a Go js/wasm module's code bytes by package, so a
// cut in what a game links can be aimed at the packages that weigh most.
// It reads the function bodies of the code section and their names from
// the "name" custom section, which the linker keeps unless -ldflags=-s.
// Data (rodata, pclntab) is reported as one line: it scales with the code.
//
//	GOOS=js GOARCH=wasm go build -trimpath -o game.wasm ./examples/breakout
//	go run ./wasmpkgs -top 40 game.wasm
package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	top := flag.Int("top", 50, "how many packages to print")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmpkgs [-top N] file.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r, err := sizes(b)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmpkgs:", err)
		os.Exit(1)
	}
	type row struct {
		pkg string
		n   int
	}
	var rows []row
	code := 0
	for p, n := range r.pkgs {
		rows = append(rows, row{p, n})
		code += n
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].n > rows[j].n })
	fmt.Printf("file %d bytes; code %d; data %d\n", len(b), code, r.data)
	for i, rw := range rows {
		if i == *top {
			break
		}
		fmt.Printf("%9d %5.1f%%  %s\n", rw.n, 100*float64(rw.n)/float64(code), rw.pkg)
	}
}

type result struct {
	pkgs map[string]int
	data int
}

func sizes(b []byte) (result, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return result{}, errors.New("not a wasm module")
	}
	var (
		imports int
		bodies  []int
		names   = map[int]string{}
		data    int
	)
	rd := bytes.NewReader(b[8:])
	for rd.Len() > 0 {
		id, err := rd.ReadByte()
		if err != nil {
			return result{}, err
		}
		n, err := binary.ReadUvarint(rd)
		if err != nil {
			return result{}, err
		}
		sec := make([]byte, n)
		if _, err := io.ReadFull(rd, sec); err != nil {
			return result{}, err
		}
		s := bytes.NewReader(sec)
		switch id {
		case 2: // imports: functions imported take the first indices
			cnt, _ := binary.ReadUvarint(s)
			for range cnt {
				skipName(s)
				skipName(s)
				kind, _ := s.ReadByte()
				switch kind {
				case 0:
					binary.ReadUvarint(s)
					imports++
				case 1:
					s.ReadByte()
					skipLimits(s)
				case 2:
					skipLimits(s)
				case 3:
					s.ReadByte()
					s.ReadByte()
				}
			}
		case 10: // code
			cnt, _ := binary.ReadUvarint(s)
			for range cnt {
				sz, _ := binary.ReadUvarint(s)
				bodies = append(bodies, int(sz))
				s.Seek(int64(sz), io.SeekCurrent)
			}
		case 11:
			data += len(sec)
		case 0:
			name := readName(s)
			if name != "name" {
				continue
			}
			for s.Len() > 0 {
				sub, _ := s.ReadByte()
				sz, _ := binary.ReadUvarint(s)
				if sub != 1 {
					s.Seek(int64(sz), io.SeekCurrent)
					continue
				}
				cnt, _ := binary.ReadUvarint(s)
				for range cnt {
					idx, _ := binary.ReadUvarint(s)
					names[int(idx)] = readName(s)
				}
			}
		}
	}
	if len(names) == 0 {
		return result{}, errors.New("no function names: build without -ldflags=-s")
	}
	pkgs := map[string]int{}
	for i, sz := range bodies {
		pkgs[pkgOf(names[imports+i])] += sz
	}
	return result{pkgs: pkgs, data: data}, nil
}

// pkgOf takes the package from a symbol as the wasm name section spells
// it: the linker writes "/" and "-" as "_", so "github.com/a-b/c.(*T).M"
// reads "github.com_a_b_c.__T_.M". A module host's dot is skipped.
func pkgOf(sym string) string {
	if sym == "" {
		return "?"
	}
	sym = strings.TrimPrefix(sym, "type_.eq.")
	off := 0
	for _, host := range []string{"github.com_", "golang.org_", "gopkg.in_", "go.uber.org_"} {
		if strings.HasPrefix(sym, host) {
			off = len(host)
		}
	}
	dot := strings.IndexByte(sym[off:], '.')
	if dot < 0 {
		return sym
	}
	return sym[:off+dot]
}

func readName(r *bytes.Reader) string {
	n, _ := binary.ReadUvarint(r)
	b := make([]byte, n)
	io.ReadFull(r, b)
	return string(b)
}

func skipName(r *bytes.Reader) { readName(r) }

func skipLimits(r *bytes.Reader) {
	f, _ := r.ReadByte()
	binary.ReadUvarint(r)
	if f&1 != 0 {
		binary.ReadUvarint(r)
	}
}
