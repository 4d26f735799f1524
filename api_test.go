package a2a_test

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateAPI = flag.Bool("update-api", false, "rewrite api/*.txt from the code (a deliberate API change)")

// apiPackages are the module's public packages and the file that records
// each one's exported API.
var apiPackages = []struct{ dir, file string }{
	{".", "api/a2a.txt"},
	{"a2atest", "api/a2atest.txt"},
}

// TestAPI holds the exported API to the files under api/, one line per
// exported name, method, struct field and interface method, as the Go
// project's api/go1.N.txt files do. A change to the API fails here until
// the file is rewritten with
//
//	go test -run '^TestAPI$' -update-api .
//
// and that rewrite is part of the reviewed change (with its CHANGELOG line).
func TestAPI(t *testing.T) {
	for _, p := range apiPackages {
		got := apiOf(t, p.dir)
		if *updateAPI {
			if err := os.WriteFile(p.file, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(p.file)
		if err != nil {
			t.Fatalf("%v (write it with: go test -run '^TestAPI$' -update-api .)", err)
		}
		if d := lineDiff(string(want), got); d != "" {
			t.Errorf("the exported API of %s differs from %s (-recorded +code):\n%s\n"+
				"If the change is meant, rewrite the file (go test -run '^TestAPI$' -update-api .) and list it in CHANGELOG.md.",
				p.dir, p.file, d)
		}
	}
}

// apiOf lists the exported API of the package in dir, one sorted line each.
func apiOf(t *testing.T, dir string) string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	var pkg string
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		pkg = f.Name.Name
		for _, decl := range f.Decls {
			lines = append(lines, declAPI(fset, decl)...)
		}
	}
	for i, l := range lines {
		lines[i] = "pkg " + pkg + ", " + l
	}
	slices.Sort(lines)
	return strings.Join(slices.Compact(lines), "\n") + "\n"
}

// declAPI returns the API lines of one top-level declaration.
func declAPI(fset *token.FileSet, decl ast.Decl) []string {
	src := func(n ast.Node) string {
		var b bytes.Buffer
		printer.Fprint(&b, fset, n)
		return strings.Join(strings.Fields(b.String()), " ")
	}
	var out []string
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() {
			return nil
		}
		sig := strings.TrimPrefix(src(d.Type), "func")
		if d.Recv == nil {
			return []string{"func " + d.Name.Name + sig}
		}
		recv := d.Recv.List[0].Type
		base := recv
		if s, ok := base.(*ast.StarExpr); ok {
			base = s.X
		}
		if id, ok := base.(*ast.Ident); !ok || !id.IsExported() {
			return nil
		}
		return []string{fmt.Sprintf("method (%s) %s%s", src(recv), d.Name.Name, sig)}
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					out = append(out, typeAPI(src, s)...)
				}
			case *ast.ValueSpec:
				for i, name := range s.Names {
					if !name.IsExported() {
						continue
					}
					line := d.Tok.String() + " " + name.Name
					if s.Type != nil {
						line += " " + src(s.Type)
					}
					if d.Tok == token.CONST && i < len(s.Values) {
						line += " = " + src(s.Values[i])
					}
					out = append(out, line)
				}
			}
		}
	}
	return out
}

// typeAPI returns the lines of an exported type: the type itself, and its
// exported fields or interface methods.
func typeAPI(src func(ast.Node) string, s *ast.TypeSpec) []string {
	name := s.Name.Name
	if s.TypeParams != nil {
		var ps []string
		for _, f := range s.TypeParams.List {
			ps = append(ps, src(&ast.Ident{Name: identList(f.Names)})+" "+src(f.Type))
		}
		name += "[" + strings.Join(ps, ", ") + "]"
	}
	alias := ""
	if s.Assign.IsValid() {
		alias = "= "
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		out := []string{"type " + name + " struct"}
		for _, f := range t.Fields.List {
			if len(f.Names) == 0 { // embedded
				if ast.IsExported(strings.TrimPrefix(src(f.Type), "*")) {
					out = append(out, fmt.Sprintf("type %s struct, embedded %s", name, src(f.Type)))
				}
				continue
			}
			for _, n := range f.Names {
				if n.IsExported() {
					out = append(out, fmt.Sprintf("type %s struct, %s %s", name, n.Name, src(f.Type)))
				}
			}
		}
		return out
	case *ast.InterfaceType:
		out := []string{"type " + name + " interface"}
		for _, m := range t.Methods.List {
			switch {
			case len(m.Names) == 0:
				out = append(out, fmt.Sprintf("type %s interface, embedded %s", name, src(m.Type)))
			case m.Names[0].IsExported():
				out = append(out, fmt.Sprintf("type %s interface, %s%s", name, m.Names[0].Name, strings.TrimPrefix(src(m.Type), "func")))
			default:
				out = append(out, fmt.Sprintf("type %s interface, unexported methods", name))
			}
		}
		return slices.Compact(out)
	}
	return []string{"type " + name + " " + alias + src(s.Type)}
}

func identList(ids []*ast.Ident) string {
	var names []string
	for _, id := range ids {
		names = append(names, id.Name)
	}
	return strings.Join(names, ", ")
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for _, l := range w {
		if l != "" && !slices.Contains(g, l) {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range g {
		if l != "" && !slices.Contains(w, l) {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}
