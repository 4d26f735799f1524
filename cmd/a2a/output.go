package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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
	w := o.env.stdout
	if o.json {
		raw := task.Raw()
		if raw == nil { // folded from events: the SDK's encoding
			raw, _ = json.Marshal(task)
		}
		w.Write(append(append([]byte(nil), raw...), '\n'))
		return
	}
	fmt.Fprintf(w, "task %s: %s\n", task.ID, stateText(task.Status))
	if task.ContextID != "" {
		fmt.Fprintf(w, "  context: %s\n", task.ContextID)
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
		fmt.Fprintf(w, "  artifact %s:\n", name)
		if text := a.Text(); text != "" {
			o.field("  text", text)
		}
		if d, ok := a.Data(); ok {
			fmt.Fprintf(w, "    data:\n%s\n", indentLines(string(indentJSON(d.Data)), "      "))
		}
		for _, p := range a.Parts {
			if f, ok := p.(a2a.FilePart); ok {
				fmt.Fprintf(w, "    file: %s %s %s\n", f.File.Name, f.File.MIMEType, or(f.File.URI, fmt.Sprintf("(%d base64 bytes)", len(f.File.Bytes))))
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

// field prints "  label: text", text wrapped to the terminal's width
// (not when stdout is a pipe or file).
func (o *options) field(label, text string) {
	prefix := "  " + label + ": "
	text = oneLine(text)
	if o.env.stdoutTTY {
		text = wrap(text, o.width()-utf8.RuneCountInString(prefix), strings.Repeat(" ", utf8.RuneCountInString(prefix)))
	}
	fmt.Fprintln(o.env.stdout, prefix+text)
}

// printMessage prints an agent's Message reply (exit 0: it answered).
func (o *options) printMessage(m *a2a.Message) int {
	if o.json {
		b, _ := json.Marshal(m)
		o.env.stdout.Write(append(b, '\n'))
		return exitOK
	}
	fmt.Fprintf(o.env.stdout, "message from the agent (no task):\n")
	o.field("text", m.Text())
	if d, ok := m.Parts.Data(); ok {
		fmt.Fprintf(o.env.stdout, "  data:\n%s\n", indentLines(string(indentJSON(d.Data)), "    "))
	}
	return exitOK
}

// indentJSON is b indented, or b as it is when it is not valid JSON.
func indentJSON(b []byte) []byte {
	var out bytes.Buffer
	if json.Indent(&out, b, "", "  ") != nil {
		return b
	}
	return out.Bytes()
}

func indentLines(s, indent string) string {
	return indent + strings.ReplaceAll(s, "\n", "\n"+indent)
}

// oneLine replaces line breaks and other control characters with spaces,
// so server text cannot rewrite the terminal.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return ' '
		}
		return r
	}, s)
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
	w := o.env.stdout
	if o.json {
		w.Write(append(append([]byte(nil), card.Raw()...), '\n'))
		return
	}
	fmt.Fprintf(w, "%s (version %s)\n", card.Name, or(card.Version, "?"))
	if card.Description != "" {
		o.field("about", card.Description)
	}
	if card.Provider != nil {
		fmt.Fprintf(w, "  provider: %s %s\n", card.Provider.Organization, card.Provider.URL)
	}
	fmt.Fprintln(w, "  endpoints:")
	chosen, err := card.JSONRPCInterface()
	for _, in := range card.Interfaces() {
		mark := " "
		if err == nil && in.URL == chosen.URL && strings.EqualFold(in.ProtocolBinding, chosen.ProtocolBinding) && versionOf(in) == chosen.ProtocolVersion {
			mark = "*"
		}
		tenant := ""
		if in.Tenant != "" {
			tenant = " tenant " + in.Tenant
		}
		fmt.Fprintf(w, "   %s %s  %s %s%s\n", mark, in.URL, in.ProtocolBinding, or(in.ProtocolVersion, "(no version)"), tenant)
	}
	if err == nil {
		fmt.Fprintln(w, "    (* the one a client made from this card calls)")
	} else {
		fmt.Fprintf(w, "    (%v)\n", err)
	}
	caps := card.Capabilities
	fmt.Fprintf(w, "  capabilities: streaming %v, push notifications %v, extended card %v\n",
		caps.Streaming, caps.PushNotifications, card.SupportsAuthenticatedExtendedCard || caps.ExtendedAgentCard)
	if len(card.DefaultInputModes)+len(card.DefaultOutputModes) > 0 {
		fmt.Fprintf(w, "  modes: in %s; out %s\n", strings.Join(card.DefaultInputModes, ", "), strings.Join(card.DefaultOutputModes, ", "))
	}
	if len(card.Skills) > 0 {
		fmt.Fprintln(w, "  skills:")
	}
	for _, s := range card.Skills {
		fmt.Fprintf(w, "    %s: %s\n", s.ID, oneLine(s.Name))
		if s.Description != "" {
			desc := oneLine(s.Description)
			if o.env.stdoutTTY {
				desc = wrap(desc, o.width()-6, "      ")
			}
			fmt.Fprintf(w, "      %s\n", desc)
		}
		for _, ex := range s.Examples {
			fmt.Fprintf(w, "      e.g. %s\n", oneLine(ex))
		}
	}
	if len(card.SecuritySchemes) > 0 {
		fmt.Fprintln(w, "  security schemes:")
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
			detail = s.OpenIDConnectURL
		}
		fmt.Fprintf(w, "    %s: %s %s\n", name, s.Type, detail)
	}
}

// versionOf is an interface's version as a client speaks it.
func versionOf(in a2a.AgentInterface) string {
	if strings.HasPrefix(in.ProtocolVersion, "1.") {
		return a2a.ProtocolV10
	}
	return a2a.ProtocolV03
}

// printEvent prints one stream event as it arrives.
func (o *options) printEvent(w io.Writer, ev a2a.Event) {
	if o.json {
		b, _ := json.Marshal(ev)
		w.Write(append(b, '\n'))
		return
	}
	switch e := ev.(type) {
	case *a2a.Task:
		fmt.Fprintf(w, "event: task %s %s\n", e.ID, stateText(e.Status))
	case *a2a.Message:
		fmt.Fprintf(w, "event: message: %s\n", oneLine(e.Text()))
	case *a2a.TaskStatusUpdateEvent:
		text := ""
		if e.Status.Message != nil {
			text = ": " + oneLine(e.Status.Message.Text())
		}
		fmt.Fprintf(w, "event: status %s%s\n", stateText(e.Status), text)
	case *a2a.TaskArtifactUpdateEvent:
		how := "artifact"
		if e.Append {
			how = "artifact chunk"
		}
		fmt.Fprintf(w, "event: %s %s (%d parts)\n", how, or(e.Artifact.Name, e.Artifact.ArtifactID), len(e.Artifact.Parts))
	}
}

// plural is word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
