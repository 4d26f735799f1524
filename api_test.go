package a2a_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
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
	{"cardsig", "api/cardsig.txt"},
}

// TestAPI holds the exported API to the files under api/, one line per
// exported name, method (promoted ones included), struct field and
// interface method, with the types the compiler sees, as the Go project's
// api/go1.N.txt files do. A change to the API fails here until the file is
// rewritten with
//
//	go test -run '^TestAPI$' -update-api .
//
// and that rewrite is part of the reviewed change (with its CHANGELOG line).
func TestAPI(t *testing.T) {
	exports := exportData(t)
	for _, p := range apiPackages {
		got := apiOf(t, p.dir, exports)
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

// exportData maps the import path of every package the public packages
// depend on to its compiled export data, as go list reports it.
func exportData(t *testing.T) map[string]string {
	t.Helper()
	args := []string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}
	for _, p := range apiPackages {
		args = append(args, "./"+p.dir)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "\t"); ok && file != "" {
			m[path] = file
		}
	}
	return m
}

// apiOf type-checks the package in dir (its non-test files) and lists its
// exported API, one sorted line each.
func apiOf(t *testing.T, dir string, exports map[string]string) string {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})}
	pkg, err := conf.Check(files[0].Name.Name, fset, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	qual := func(p *types.Package) string { // "Task", "context.Context"
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	str := func(typ types.Type) string { return types.TypeString(typ, qual) }
	var lines []string
	add := func(format string, args ...any) {
		lines = append(lines, "pkg "+pkg.Name()+", "+fmt.Sprintf(format, args...))
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			add("const %s %s = %s", name, str(obj.Type()), obj.Val().ExactString())
		case *types.Var:
			add("var %s %s", name, str(obj.Type()))
		case *types.Func:
			add("func %s%s", name, strings.TrimPrefix(str(obj.Type()), "func"))
		case *types.TypeName:
			typeAPI(add, str, obj)
		}
	}
	slices.Sort(lines)
	return strings.Join(slices.Compact(lines), "\n") + "\n"
}

// typeAPI adds the lines of an exported type: the type, its exported
// fields or interface methods, and its exported methods, promoted ones
// included (those of the pointer only marked as such).
func typeAPI(add func(string, ...any), str func(types.Type) string, obj *types.TypeName) {
	name := obj.Name()
	under := obj.Type().Underlying()
	switch u := under.(type) {
	case *types.Struct:
		add("type %s struct", name)
		for f := range u.Fields() {
			switch {
			case f.Embedded() && f.Exported():
				add("type %s struct, embedded %s", name, str(f.Type()))
			case f.Exported():
				add("type %s struct, %s %s", name, f.Name(), str(f.Type()))
			}
		}
	case *types.Interface:
		add("type %s interface", name)
		for e := range u.EmbeddedTypes() {
			add("type %s interface, embedded %s", name, str(e))
		}
		for m := range u.ExplicitMethods() {
			if m.Exported() {
				add("type %s interface, %s%s", name, m.Name(), strings.TrimPrefix(str(m.Type()), "func"))
			} else {
				add("type %s interface, unexported methods", name)
			}
		}
		return // an interface's methods are listed above
	default:
		add("type %s %s", name, str(under))
	}
	value := types.NewMethodSet(obj.Type())
	for sel := range types.NewMethodSet(types.NewPointer(obj.Type())).Methods() {
		m := sel.Obj()
		if !m.Exported() {
			continue
		}
		recv := name
		if value.Lookup(m.Pkg(), m.Name()) == nil {
			recv = "*" + name
		}
		add("method (%s) %s%s", recv, m.Name(), strings.TrimPrefix(str(m.Type()), "func"))
	}
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
