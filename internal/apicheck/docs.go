package apicheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"io/fs"
	"regexp"
	"slices"
)

// A DocLeak is an exported name whose doc comment names an unexported
// identifier of its package, which a reader of the documentation cannot
// look up.
type DocLeak struct {
	Name  string // the exported name, as Line.Name
	Ident string // the unexported identifier its doc names
}

func (l DocLeak) String() string {
	return fmt.Sprintf("%s: its doc comment names %s, which is unexported", l.Name, l.Ident)
}

// camel finds words that can only be identifiers: lower camel case with an
// inner capital (maxEarlyWakes), or a doc link ([osWaiter.Wake]).
var (
	camel   = regexp.MustCompile(`\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b`)
	docLink = regexp.MustCompile(`\[\*?([a-z][A-Za-z0-9_]*)(?:\.[A-Za-z0-9_]+)?\]`)
)

// DocLeaks lists the exported names of the module at fsys whose doc
// comments name an unexported package-level identifier of their package:
// one written in lower camel case with an inner capital, or a type in a doc
// link.
func DocLeaks(fsys fs.FS) ([]DocLeak, error) {
	pkgs, err := packages(fsys)
	if err != nil {
		return nil, err
	}
	var out []DocLeak
	for _, p := range pkgs {
		unexported := map[string]bool{}
		unexportedTypes := map[string]bool{} // a doc link to a value may be a TOML table: [render]
		for _, f := range p.files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && !d.Name.IsExported() {
						unexported[d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if !n.IsExported() && n.Name != "_" {
									unexported[n.Name] = true
								}
							}
						case *ast.TypeSpec:
							if !s.Name.IsExported() {
								unexported[s.Name.Name] = true
								unexportedTypes[s.Name.Name] = true
							}
						}
					}
				}
			}
		}
		check := func(name string, docs ...*ast.CommentGroup) {
			for _, doc := range docs {
				if doc == nil {
					continue
				}
				text := doc.Text()
				var found []string
				for _, w := range camel.FindAllString(text, -1) {
					if unexported[w] {
						found = append(found, w)
					}
				}
				for _, m := range docLink.FindAllStringSubmatch(text, -1) {
					if unexportedTypes[m[1]] {
						found = append(found, m[1])
					}
				}
				slices.Sort(found)
				for _, w := range slices.Compact(found) {
					out = append(out, DocLeak{Name: p.path + "." + name, Ident: w})
				}
			}
		}
		for _, f := range p.files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() {
						continue
					}
					name := d.Name.Name
					if d.Recv != nil {
						recv, _ := receiver(d.Recv.List[0].Type)
						if !ast.IsExported(recv) {
							continue
						}
						name = recv + "." + name
					}
					check(name, d.Doc)
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() {
									check(n.Name, groupDoc(d, s.Doc), s.Comment)
								}
							}
						case *ast.TypeSpec:
							if !s.Name.IsExported() {
								continue
							}
							check(s.Name.Name, groupDoc(d, s.Doc))
							fields := fieldLists(s.Type)
							for _, fl := range fields {
								for _, f := range fl.List {
									for _, n := range f.Names {
										if n.IsExported() {
											check(s.Name.Name+"."+n.Name, f.Doc, f.Comment)
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return out, nil
}

// groupDoc is a spec's doc, or its declaration's when the declaration holds
// that one spec.
func groupDoc(d *ast.GenDecl, spec *ast.CommentGroup) *ast.CommentGroup {
	if spec == nil && d.Tok != token.IMPORT && len(d.Specs) == 1 {
		return d.Doc
	}
	return spec
}

func fieldLists(t ast.Expr) []*ast.FieldList {
	switch t := t.(type) {
	case *ast.StructType:
		return []*ast.FieldList{t.Fields}
	case *ast.InterfaceType:
		return []*ast.FieldList{t.Methods}
	}
	return nil
}
