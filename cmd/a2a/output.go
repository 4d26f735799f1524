package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// width is the terminal's width in columns: $COLUMNS, or 100.
func (o *options) width() int {
	if n, err := strconv.Atoi(o.env.getenv("COLUMNS")); err == nil && n >= 20 {
		return n
	}
	return 100
}

// printTask prints a task: with --json, its bytes as the agent sent them;
// else its id, state, the status message (the failure reason or the
// question), and each artifact's name, text and data.
func (o *options) printTask(task *a2a.Task) {
	if o.json {
		raw := task.Raw()
		if raw == nil { // folded from events: the SDK's encoding
			raw, _ = json.Marshal(task)
		}
		o.outJSON(raw)
		return
	}
	o.outf("task %s: %s\n", task.ID, stateText(task.Status))
	if task.ContextID != "" {
		o.outf("  context: %s\n", task.ContextID)
	}
	if text := task.StatusText(); text != "" {
		label := "message"
		switch {
		case task.Status.State == a2a.TaskStateFailed || task.Status.State == a2a.TaskStateRejected:
			label = "reason"
		case task.Status.State.Interrupted():
			label = "question"
		}
		o.field(label, text)
	}
	for _, a := range task.Artifacts {
		name := or(a.Name, a.ArtifactID)
		o.outf("  artifact %s:\n", name)
		if text := a.Text(); text != "" {
			o.field("  text", text)
		}
		if d, ok := a.Data(); ok {
			o.outf("    data:\n%s\n", agentText(indentLines(string(indentJSON(d.Data)), "      ")))
		}
		for _, p := range a.Parts {
			if f, ok := p.(a2a.FilePart); ok {
				o.outf("    file: %s %s %s\n", f.File.Name, f.File.MIMEType, or(f.File.URI, fmt.Sprintf("(%d base64 bytes)", len(f.File.Bytes))))
			}
		}
	}
}

// stateText is the state (an A2A v1.0 spelling shows as its v0.3 name,
// the one the exit codes and --status use).
func stateText(s a2a.TaskStatus) string {
	if s.State == "" {
		return "(no state)"
	}
	return string(s.State)
}

// field prints "  label: text", an agent's text: its lines indented
// under the first, each wrapped to the terminal's width (not when stdout
// is a pipe or file); its other control characters escaped (agentText).
func (o *options) field(label, text string) {
	prefix := "  " + label + ": "
	indent := strings.Repeat(" ", utf8.RuneCountInString(prefix))
	lines := strings.Split(o.inertText(strings.TrimRight(text, "\n")), "\n")
	for i, l := range lines {
		if o.env.stdoutTTY {
			lines[i] = wrap(l, o.width()-len(indent), indent)
		}
	}
	o.outInert(prefix + strings.Join(lines, "\n"+indent) + "\n")
}

// printMessage prints an agent's Message reply (exit 0: it answered).
func (o *options) printMessage(m *a2a.Message) int {
	if o.json {
		b, _ := json.Marshal(m)
		o.outJSON(b)
		return exitOK
	}
	o.outf("message from the agent (no task):\n")
	o.field("text", m.Text())
	if d, ok := m.Parts.Data(); ok {
		o.outf("  data:\n%s\n", agentText(indentLines(string(indentJSON(d.Data)), "    ")))
	}
	return exitOK
}

// indentJSON is b indented, or b as it is when it is not valid JSON.
func indentJSON(b []byte) []byte {
	var out bytes.Buffer
	if indentedSize(b) > 4*len(b)+64<<10 { // deep nesting: the indentation would dwarf the value
		if json.Compact(&out, b) != nil {
			return b
		}
		return out.Bytes()
	}
	if json.Indent(&out, b, "", "  ") != nil {
		return b
	}
	return out.Bytes()
}

// indentedSize is about how long b, JSON, is once indented by two spaces
// a level: each line break with its indentation counted. It grows with
// the square of the nesting where each level holds a line, so a small
// value nested thousands deep would print megabytes; indentJSON prints
// such a value compact.
func indentedSize(b []byte) int {
	size, depth, inString, escaped := len(b), 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			size += 1 + 2*depth
		case c == ',':
			size += 1 + 2*depth
		case c == '}' || c == ']':
			depth--
			size += 1 + 2*max(depth, 0)
		case c == ':':
			size++
		}
	}
	return size
}

func indentLines(s, indent string) string {
	return indent + strings.ReplaceAll(s, "\n", "\n"+indent)
}

// wrap breaks s into lines of at most width columns (a wide rune, such as
// a Chinese character, counts two), the later lines starting with indent.
func wrap(s string, width int, indent string) string {
	if width < 10 {
		width = 10
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		w := 1
		if r >= 0x1100 && isWide(r) {
			w = 2
		}
		if col+w > width {
			b.WriteString("\n" + indent)
			col = 0
			if r == ' ' {
				continue
			}
		}
		b.WriteRune(r)
		col += w
	}
	return b.String()
}

// isWide reports whether r takes two columns: the East Asian wide and
// full-width ranges.
func isWide(r rune) bool {
	return r <= 0x115f || r >= 0x2e80 && r <= 0xa4cf || r >= 0xac00 && r <= 0xd7a3 ||
		r >= 0xf900 && r <= 0xfaff || r >= 0xfe30 && r <= 0xfe4f || r >= 0xff00 && r <= 0xff60 ||
		r >= 0xffe0 && r <= 0xffe6 || r >= 0x1f300 && r <= 0x1faff || r >= 0x20000 && r <= 0x3fffd
}

// printCard summarises a card: name, version, protocol versions,
// endpoints, capabilities, skills with examples, security schemes.
func (o *options) printCard(card *a2a.AgentCard) {
	if o.json {
		if o.cardKeys != "" || o.jkuHosts != "" || o.requireSigned {
			o.outJSON(cardJSON(card))
			return
		}
		o.outJSON(card.Raw())
		return
	}
	o.outf("%s (version %s)\n", card.Name, or(card.Version, "?"))
	o.outf("  signature: %s\n", o.signatureLine(card.Verification()))
	if card.Description != "" {
		o.field("about", card.Description)
	}
	if card.Provider != nil {
		o.outf("  provider: %s %s\n", card.Provider.Organization, o.shownURL(card.Provider.URL))
	}
	o.outf("  endpoints:\n")
	var chosen a2a.AgentInterface
	c, err := a2a.NewClientFromCard(card, o.choiceOptions()...)
	if err == nil {
		chosen = c.Interface()
	}
	marked := false
	for _, in := range card.Interfaces() {
		mark := " "
		if err == nil && !marked && in.URL == chosen.URL && strings.EqualFold(in.ProtocolBinding, chosen.ProtocolBinding) && versionOf(in) == chosen.ProtocolVersion {
			mark, marked = "*", true
		}
		tenant := ""
		if in.Tenant != "" {
			tenant = " tenant " + in.Tenant
		}
		o.outf("   %s %s  %s %s%s\n", mark, o.shownURL(in.URL), in.ProtocolBinding, or(in.ProtocolVersion, "(no version)"), tenant)
	}
	if err == nil {
		o.outf("    (* the one a2a calls: the first, in card order, that --transport and --protocol allow)\n")
	} else {
		o.outf("    (%v)\n", err)
	}
	caps := card.Capabilities
	o.outf("  capabilities: streaming %v, push notifications %v, extended card %v\n",
		caps.Streaming, caps.PushNotifications, card.SupportsAuthenticatedExtendedCard || caps.ExtendedAgentCard)
	if len(caps.Extensions) > 0 {
		var exts []string
		for _, x := range caps.Extensions {
			if x.Required {
				x.URI += " (required)"
			}
			exts = append(exts, x.URI)
		}
		o.outf("  extensions: %s\n", strings.Join(exts, ", "))
	}
	if len(card.DefaultInputModes)+len(card.DefaultOutputModes) > 0 {
		o.outf("  modes: in %s; out %s\n", strings.Join(card.DefaultInputModes, ", "), strings.Join(card.DefaultOutputModes, ", "))
	}
	if len(card.Skills) > 0 {
		o.outf("  skills:\n")
	}
	for _, s := range card.Skills {
		o.outf("    %s: %s\n", s.ID, s.Name)
		if s.Description != "" {
			desc := o.shown(s.Description).(string)
			if o.env.stdoutTTY {
				desc = wrap(desc, o.width()-6, "      ")
			}
			o.outInert("      " + desc + "\n")
		}
		for _, ex := range s.Examples {
			o.outf("      e.g. %s\n", ex)
		}
	}
	if len(card.SecuritySchemes) > 0 {
		o.outf("  security schemes:\n")
	}
	for _, name := range slices.Sorted(maps.Keys(card.SecuritySchemes)) {
		s := card.SecuritySchemes[name]
		detail := ""
		switch s.Type {
		case "apiKey":
			detail = fmt.Sprintf("%s in %s", s.Name, s.In)
		case "http":
			detail = s.Scheme
		case "openIdConnect":
			detail = o.shownURL(s.OpenIDConnectURL)
		}
		o.outf("    %s: %s %s\n", name, s.Type, detail)
	}
}

// versionOf is an interface's version as a client speaks it.
func versionOf(in a2a.AgentInterface) string {
	if strings.HasPrefix(in.ProtocolVersion, "1.") {
		return a2a.ProtocolV10
	}
	return a2a.ProtocolV03
}

// printEvent prints one stream event as it arrives, its texts on one
// line (their line breaks escaped).
func (o *options) printEvent(ev a2a.Event) {
	if o.json {
		b, _ := json.Marshal(ev)
		o.outJSON(b)
		return
	}
	switch e := ev.(type) {
	case *a2a.Task:
		o.outf("event: task %s %s\n", e.ID, stateText(e.Status))
	case *a2a.Message:
		o.outf("event: message: %s\n", e.Text())
	case *a2a.TaskStatusUpdateEvent:
		text := ""
		if e.Status.Message != nil {
			text = ": " + e.Status.Message.Text()
		}
		o.outf("event: status %s%s\n", stateText(e.Status), text)
	case *a2a.TaskArtifactUpdateEvent:
		how := "artifact"
		if e.Append {
			how = "artifact chunk"
		}
		o.outf("event: %s %s (%d parts)\n", how, or(e.Artifact.Name, e.Artifact.ArtifactID), len(e.Artifact.Parts))
	}
}

// plural is word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
