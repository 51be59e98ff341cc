package apicheck

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// A Line is one exported name of the API: its Name, dotted from the package
// path ("timing.FramePacer.Pace", "runtime/work.Pool"), and its Text, the
// line of an API file that states its kind and signature
// ("pkg timing, method (*FramePacer) Pace() PaceResult").
type Line struct {
	Name string
	Text string
}

// An API is a module's exported names, and for each exported type the
// types whose members it also offers: the type an alias names, and the
// types a struct embeds (their fields and methods are promoted).
type API struct {
	Lines []Line
	// links maps a type's Name to the Names of types whose members it
	// offers too.
	links map[string][]string
}

// platforms are the build contexts whose files make up the API: the desktop
// systems with cgo and the browser. A name on any of them is in the API.
var platforms = []struct{ goos, goarch string }{
	{"linux", "amd64"}, {"windows", "amd64"}, {"darwin", "arm64"}, {"js", "wasm"},
}

// Extract lists the exported API of the module whose root is fsys: every
// package outside internal/ directories, cmd/, examples/ and nested modules
// that is not a command, as the union over the desktop and browser
// platforms, sorted by name. A file that does not parse is an error naming
// it.
func Extract(fsys fs.FS) (*API, error) {
	pkgs, err := packages(fsys)
	if err != nil {
		return nil, err
	}
	api := &API{links: map[string][]string{}}
	seen := map[string]Line{}
	for _, pkg := range pkgs {
		for _, l := range pkg.lines(api.links) {
			if _, ok := seen[l.Name]; !ok {
				seen[l.Name] = l
			}
		}
	}
	for _, l := range seen {
		api.Lines = append(api.Lines, l)
	}
	slices.SortFunc(api.Lines, func(a, b Line) int { return cmp.Compare(a.Text, b.Text) })
	return api, nil
}

// packages parses the module's packages that are part of its API, in the
// order of their paths.
func packages(fsys fs.FS) ([]*pkgDecls, error) {
	mod, err := modulePath(fsys)
	if err != nil {
		return nil, err
	}
	dirs := map[string][]string{} // directory -> .go files, tests left out
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			base := d.Name()
			if p != "." && (base == "testdata" || base == "internal" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
				return fs.SkipDir
			}
			if p == "cmd" || p == "examples" {
				return fs.SkipDir
			}
			if p != "." {
				if _, err := fs.Stat(fsys, path.Join(p, "go.mod")); err == nil {
					return fs.SkipDir // a module of its own
				}
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			dirs[path.Dir(p)] = append(dirs[path.Dir(p)], path.Base(p))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("apicheck: %w", err)
	}
	var pkgs []*pkgDecls
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		pkg, err := parseDir(fsys, dir, dirs[dir])
		if err != nil {
			return nil, err
		}
		if pkg != nil {
			pkg.mod = mod
			pkgs = append(pkgs, pkg)
		}
	}
	return pkgs, nil
}

// modulePath reads the module path from fsys's go.mod.
func modulePath(fsys fs.FS) (string, error) {
	data, err := fs.ReadFile(fsys, "go.mod")
	if err != nil {
		return "", fmt.Errorf("apicheck: the module root must hold go.mod: %w", err)
	}
	if mod := modfile.ModulePath(data); mod != "" {
		return mod, nil
	}
	return "", fmt.Errorf("apicheck: go.mod names no module")
}

// pkgDecls is one package's declarations, merged over every platform's
// files (each file once).
type pkgDecls struct {
	mod   string // the module path
	path  string // relative to the module root, "." for the root package
	files []*ast.File
}

// parseDir parses the files of dir that build on any of the platforms; nil
// for a command or a directory with no such file.
func parseDir(fsys fs.FS, dir string, names []string) (*pkgDecls, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	slices.Sort(names)
	for _, name := range names {
		src, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("apicheck: %w", err)
		}
		if !buildsAnywhere(name, src) {
			continue
		}
		f, err := parser.ParseFile(fset, path.Join(dir, name), src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("apicheck: %w", err)
		}
		if f.Name.Name == "main" || strings.HasSuffix(f.Name.Name, "_test") {
			return nil, nil
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil
	}
	return &pkgDecls{path: dir, files: files}, nil
}

// buildsAnywhere reports whether the file named name with contents src is
// built on one of the platforms.
func buildsAnywhere(name string, src []byte) bool {
	for _, p := range platforms {
		ctx := build.Default
		ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = p.goos, p.goarch, p.goos != "js"
		ctx.BuildTags, ctx.ToolTags, ctx.ReleaseTags = nil, nil, build.Default.ReleaseTags
		ctx.OpenFile = func(string) (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(src)), nil
		}
		ctx.JoinPath = path.Join
		if ok, err := ctx.MatchFile(".", name); err == nil && ok {
			return true
		}
	}
	return false
}

// lines lists the package's exported names.
func (p *pkgDecls) lines(links map[string][]string) []Line {
	var out []Line
	pkg := p.path
	add := func(name, text string) {
		out = append(out, Line{Name: pkg + "." + name, Text: "pkg " + pkg + ", " + text})
	}
	for _, f := range p.files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					add(d.Name.Name, "func "+d.Name.Name+typeParams(d.Type.TypeParams)+signature(d.Type))
					continue
				}
				recv, ptr := receiver(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				add(recv+"."+d.Name.Name, "method ("+ptr+recv+") "+d.Name.Name+signature(d.Type))
			case *ast.GenDecl:
				link := func(name string, e ast.Expr) {
					if target := p.typeName(f, e); target != "" {
						links[pkg+"."+name] = append(links[pkg+"."+name], target)
					}
				}
				p.genDecl(d, add, link)
			}
		}
	}
	return out
}

func (p *pkgDecls) genDecl(d *ast.GenDecl, add func(name, text string), link func(name string, e ast.Expr)) {
	var typ ast.Expr // a const group's type, inherited by specs without one
	for _, spec := range d.Specs {
		switch s := spec.(type) {
		case *ast.ValueSpec:
			kind := "var"
			if d.Tok == token.CONST {
				kind = "const"
				if s.Type != nil || len(s.Values) > 0 {
					typ = s.Type
				}
			} else {
				typ = s.Type
			}
			for i, n := range s.Names {
				if !n.IsExported() {
					continue
				}
				text := kind + " " + n.Name
				switch {
				case typ != nil:
					text += " " + types.ExprString(typ)
				case d.Tok == token.CONST && i < len(s.Values):
					if lit, ok := s.Values[i].(*ast.BasicLit); ok {
						text += " = " + lit.Value
					}
				}
				add(n.Name, text)
			}
		case *ast.TypeSpec:
			if !s.Name.IsExported() {
				continue
			}
			name := s.Name.Name
			head := "type " + name + typeParams(s.TypeParams)
			if s.Assign.IsValid() {
				add(name, head+" = "+types.ExprString(s.Type))
				link(name, s.Type)
				continue
			}
			switch t := s.Type.(type) {
			case *ast.StructType:
				add(name, head+" struct")
				for _, f := range t.Fields.List {
					if len(f.Names) == 0 {
						link(name, f.Type)
						emb, _ := receiver(f.Type)
						if ast.IsExported(emb) {
							add(name+"."+emb, head+" struct, embedded "+types.ExprString(f.Type))
						}
						continue
					}
					for _, n := range f.Names {
						if n.IsExported() {
							add(name+"."+n.Name, head+" struct, "+n.Name+" "+types.ExprString(f.Type))
						}
					}
				}
			case *ast.InterfaceType:
				add(name, head+" interface")
				for _, m := range t.Methods.List {
					if len(m.Names) == 0 {
						link(name, m.Type)
						if emb, _ := receiver(m.Type); ast.IsExported(emb) {
							add(name+"."+emb, head+" interface, embedded "+types.ExprString(m.Type))
						}
						continue
					}
					for _, n := range m.Names {
						if ft, ok := m.Type.(*ast.FuncType); ok && n.IsExported() {
							add(name+"."+n.Name, head+" interface, "+n.Name+signature(ft))
						}
					}
				}
			default:
				add(name, head+" "+types.ExprString(s.Type))
			}
		}
	}
}

// typeName returns the Name of the module's type that e names in file f
// ("timing.Ledger"), or "" for a type of another module or a literal.
func (p *pkgDecls) typeName(f *ast.File, e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch t := e.(type) {
	case *ast.IndexExpr:
		e = t.X
	case *ast.IndexListExpr:
		e = t.X
	}
	switch t := e.(type) {
	case *ast.Ident:
		if types.Universe.Lookup(t.Name) != nil {
			return ""
		}
		return p.path + "." + t.Name
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		if !ok {
			return ""
		}
		for _, imp := range f.Imports {
			ip := strings.Trim(imp.Path.Value, `"`)
			name := path.Base(ip)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			if name != x.Name {
				continue
			}
			rel, ok := strings.CutPrefix(ip, p.mod+"/")
			if !ok {
				return ""
			}
			return rel + "." + t.Sel.Name
		}
	}
	return ""
}

// receiver returns the type name of a receiver or embedded field and "*"
// for a pointer.
func receiver(e ast.Expr) (name, ptr string) {
	if s, ok := e.(*ast.StarExpr); ok {
		ptr, e = "*", s.X
	}
	switch t := e.(type) {
	case *ast.IndexExpr:
		e = t.X
	case *ast.IndexListExpr:
		e = t.X
	}
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name, ptr
	case *ast.SelectorExpr:
		return t.Sel.Name, ptr
	}
	return "", ptr
}

// signature prints a function type without parameter names, as Go's own
// API files do: "(Clock, Waiter) (*FramePacer, error)".
func signature(ft *ast.FuncType) string {
	s := "(" + fieldTypes(ft.Params) + ")"
	if ft.Results == nil || len(ft.Results.List) == 0 {
		return s
	}
	res := fieldTypes(ft.Results)
	if len(ft.Results.List) == 1 && len(ft.Results.List[0].Names) <= 1 {
		return s + " " + res
	}
	return s + " (" + res + ")"
}

func fieldTypes(fl *ast.FieldList) string {
	if fl == nil {
		return ""
	}
	var parts []string
	for _, f := range fl.List {
		t := types.ExprString(f.Type)
		for range max(1, len(f.Names)) {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, ", ")
}

func typeParams(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return ""
	}
	var parts []string
	for _, f := range fl.List {
		var names []string
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
		parts = append(parts, strings.Join(names, ", ")+" "+types.ExprString(f.Type))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
