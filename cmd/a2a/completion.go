package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Shell completion ("a2a completion bash|zsh|fish", A2A CLI spec §7.1,
// CLI_002). The script is made from the command table (cmdInfo), never
// from a list of its own, and is static: completing reads no network and
// runs no a2a, so it is fast and safe. It completes the command words at
// each level, the flags of the command typed so far (the value of a flag
// that takes one is skipped), the fixed choices of a flag's value and of a
// positional argument written as alternatives ("bash|zsh|fish"), file
// names after the flags that name a file (fileFlags), directories after
// those that name a directory (dirFlags), and after "help" the command
// words again. "--flag=value" is understood; "--" ends the flags.

// cmdInfo describes one command for completion and help: its path
// ("task", "push-config", "create"; empty for what comes before any
// command word: the flags -h, --help, -v, --version), its positional
// arguments' synopsis ("TASKID WEBHOOK", "bash|zsh|fish": a word of
// lower-case alternatives gives that argument's choices), its summary
// (one line), and its flags, global ones included.
type cmdInfo struct {
	Path    []string
	Args    string
	Summary string
	Flags   []flagInfo
}

// flagInfo describes one flag: its long name without dashes ("output"),
// its one-letter short name without the dash or "", its usage (one line),
// whether it takes a value, and the value's fixed choices if any ("text",
// "json" for --output; "JSONRPC", "HTTP+JSON" for --transport).
type flagInfo struct {
	Name, Short, Usage string
	TakesValue         bool
	Choices            []string
}

// fileFlags are the flags whose value is a file name (--agent-card's may
// be a card file); dirFlags those whose value is a directory.
var (
	fileFlags = []string{"file", "data", "config", "card-keys", "cert", "key", "cacert", "agent-card"}
	dirFlags  = []string{"dir"}
)

// completionShells are the shells completionScript writes for.
var completionShells = []string{"bash", "zsh", "fish"}

// completionScript returns the completion script for shell ("bash", "zsh"
// or "fish") made from cmds, the command table. An unknown shell is a
// usageError naming the three; a table entry that cannot be written safely
// into a script (a command word, flag name or choice outside
// [A-Za-z0-9._+:/=-], a short name not one letter or digit, a path given
// twice) is an error naming it.
func completionScript(shell string, cmds []cmdInfo) (string, error) {
	if !slices.Contains(completionShells, shell) {
		return "", usagef("unknown shell %q: want bash, zsh or fish", shell)
	}
	t, err := newCompTable(cmds)
	if err != nil {
		return "", err
	}
	switch shell {
	case "bash":
		return t.bash(), nil
	case "zsh":
		return t.zsh(), nil
	}
	return t.fish(), nil
}

// compNode is one level of the command tree: a command, or a word that
// groups commands ("task"), or the root.
type compNode struct {
	key     string     // the path's words joined by spaces; "" for the root
	subs    []string   // the command words that may follow, in table order
	sums    []string   // their summaries, index for index
	flags   []flagInfo // the flags offered here
	vflags  []flagInfo // the flags that take a value here or below (to skip their values)
	args    [][]string // the choices of each positional argument (nil: none)
	hasInfo bool       // the table describes this path itself
}

// compTable is the command tree, nodes in table order.
type compTable struct {
	nodes []*compNode
	byKey map[string]*compNode
}

var (
	safeWord  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+:/=-]*$`)
	shortName = regexp.MustCompile(`^[A-Za-z0-9]$`)
	altWords  = regexp.MustCompile(`^[a-z0-9][a-z0-9._+-]*(\|[a-z0-9][a-z0-9._+-]*)*$`)
)

// newCompTable builds the tree of cmds, checking every word it will write.
func newCompTable(cmds []cmdInfo) (*compTable, error) {
	t := &compTable{byKey: map[string]*compNode{}}
	node := func(path []string) *compNode {
		key := strings.Join(path, " ")
		if n := t.byKey[key]; n != nil {
			return n
		}
		n := &compNode{key: key}
		t.byKey[key] = n
		t.nodes = append(t.nodes, n)
		return n
	}
	node(nil)
	for _, c := range cmds {
		for _, w := range c.Path {
			if !safeWord.MatchString(w) || strings.HasPrefix(w, "-") {
				return nil, fmt.Errorf("completion table: command word %q", w)
			}
		}
		for _, f := range c.Flags {
			if !safeWord.MatchString(f.Name) || strings.Contains(f.Name, "=") || f.Short != "" && !shortName.MatchString(f.Short) {
				return nil, fmt.Errorf("completion table: flag %q (short %q) of %q", f.Name, f.Short, strings.Join(c.Path, " "))
			}
			for _, ch := range f.Choices {
				if !safeWord.MatchString(ch) {
					return nil, fmt.Errorf("completion table: choice %q of --%s", ch, f.Name)
				}
			}
		}
		for i := range c.Path {
			parent, child := node(c.Path[:i]), c.Path[i]
			if !slices.Contains(parent.subs, child) {
				parent.subs = append(parent.subs, child)
				parent.sums = append(parent.sums, "")
			}
			if i == len(c.Path)-1 {
				parent.sums[slices.Index(parent.subs, child)] = c.Summary
			}
			node(c.Path[:i+1])
		}
		n := node(c.Path)
		if n.hasInfo {
			return nil, fmt.Errorf("completion table: command %q given twice", n.key)
		}
		n.hasInfo, n.flags, n.args = true, c.Flags, argChoices(c.Args)
	}
	// A node the table does not describe offers the flags every command
	// under it takes; every node skips the values of the flags taken
	// anywhere under it.
	for _, n := range t.nodes {
		var under []*compNode
		for _, m := range t.nodes {
			if m.hasInfo && (n.key == "" || m.key == n.key || strings.HasPrefix(m.key, n.key+" ")) {
				under = append(under, m)
			}
		}
		if !n.hasInfo && len(under) > 0 {
			for _, f := range under[0].flags {
				if !slices.ContainsFunc(under[1:], func(m *compNode) bool { return !slices.ContainsFunc(m.flags, sameFlag(f)) }) {
					n.flags = append(n.flags, f)
				}
			}
		}
		for _, f := range n.flags {
			if f.TakesValue {
				n.vflags = append(n.vflags, f)
			}
		}
		for _, m := range under {
			for _, f := range m.flags {
				if f.TakesValue && !slices.ContainsFunc(n.vflags, sameFlag(f)) {
					n.vflags = append(n.vflags, f)
				}
			}
		}
	}
	return t, nil
}

func sameFlag(f flagInfo) func(flagInfo) bool {
	return func(g flagInfo) bool { return g.Name == f.Name }
}

// argChoices reads a synopsis of positional arguments ("TASKID CONFIGID",
// "bash|zsh|fish", "[TEXT]"): for each argument, its choices when it is
// written as lower-case words ("get|list"), else nil. Flags written in the
// synopsis ("[--dir DIR]") and their values are not arguments.
func argChoices(synopsis string) [][]string {
	var out [][]string
	words := strings.Fields(strings.NewReplacer("[", " ", "]", " ", "...", " ").Replace(synopsis))
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") {
			if i+1 < len(words) && strings.ToUpper(words[i+1]) == words[i+1] && !strings.HasPrefix(words[i+1], "-") {
				i++
			}
			continue
		}
		if altWords.MatchString(w) {
			out = append(out, strings.Split(w, "|"))
		} else {
			out = append(out, nil)
		}
	}
	return out
}

// forms is the spellings of f on a command line: "--name", "-name" (Go's
// flag package reads one dash too) and "-s".
func forms(f flagInfo) []string {
	out := []string{"--" + f.Name, "-" + f.Name}
	if f.Short != "" {
		out = append(out, "-"+f.Short)
	}
	return out
}

// offered is the spellings of f that completion offers: "--name", "-s".
func offered(f flagInfo) []string {
	if f.Short != "" {
		return []string{"--" + f.Name, "-" + f.Short}
	}
	return []string{"--" + f.Name}
}

// valueAction is how the value of f is completed: "w CHOICE…" (words),
// "f" (a file), "d" (a directory), or "" (nothing to offer).
func valueAction(f flagInfo) string {
	switch {
	case len(f.Choices) > 0:
		return "w " + strings.Join(f.Choices, " ")
	case slices.Contains(fileFlags, f.Name):
		return "f"
	case slices.Contains(dirFlags, f.Name):
		return "d"
	}
	return ""
}

// actions groups the "node flag" keys of every flag value with something to
// offer by their action, in table order: key patterns, then the action.
func (t *compTable) actions() (keys [][]string, acts []string) {
	for _, n := range t.nodes {
		for _, f := range n.vflags {
			a := valueAction(f)
			if a == "" {
				continue
			}
			i := slices.Index(acts, a)
			if i < 0 {
				i = len(acts)
				acts, keys = append(acts, a), append(keys, nil)
			}
			for _, s := range forms(f) {
				keys[i] = append(keys[i], n.key+" "+s)
			}
		}
	}
	return keys, acts
}

// argActions is actions for positional arguments: keys "node INDEX".
func (t *compTable) argActions() (keys [][]string, acts []string) {
	for _, n := range t.nodes {
		for i, ch := range n.args {
			if ch == nil {
				continue
			}
			a := "w " + strings.Join(ch, " ")
			j := slices.Index(acts, a)
			if j < 0 {
				j = len(acts)
				acts, keys = append(acts, a), append(keys, nil)
			}
			keys[j] = append(keys[j], fmt.Sprintf("%s %d", n.key, i))
		}
	}
	return keys, acts
}

// nodeWords is the words of n as the scripts hold them: the command words,
// the flags offered and the spellings of the flags taking a value, each
// list space-separated (vflags with a space at both ends, for matching
// " WORD ").
func (n *compNode) words() (subs, flags, vflags string) {
	var fl, vf []string
	for _, f := range n.flags {
		fl = append(fl, offered(f)...)
	}
	for _, f := range n.vflags {
		vf = append(vf, forms(f)...)
	}
	return strings.Join(n.subs, " "), strings.Join(fl, " "), " " + strings.Join(vf, " ") + " "
}

// shQuote is s in single quotes for sh, zsh and fish: the table's words
// are checked to hold no quote, so this is for the empty key.
func shQuote(s string) string { return "'" + s + "'" }

// caseKeys is keys as the patterns of one sh case branch: 'a'|'b'.
func caseKeys(keys []string, sep string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = shQuote(k)
	}
	return strings.Join(q, sep)
}
