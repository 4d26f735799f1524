package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The text floor (the specification's §11.2): one "Label: value" field a
// line, with stable labels, and blocks for what takes several lines (a
// text, a formatted data part, a status message): the label alone on its
// line, each line of the content indented by two spaces (an empty one is
// "  "), then an empty line. Every value is the agent's text made inert
// and redacted (outf, shown), so no control sequence reaches the screen.

// field prints "Label: value", value on one line (its control characters,
// line breaks included, escaped).
func (o *options) field(label string, value any) { o.outf("%s: %v\n", label, value) }

// block prints label's block: text, an agent's text, its lines indented,
// wrapped to the terminal's width when stdout is one.
func (o *options) block(label, text string) {
	var b strings.Builder
	b.WriteString(label + ":\n")
	for line := range strings.SplitSeq(o.inertText(strings.TrimRight(text, "\n")), "\n") {
		if o.env.stdoutTTY {
			line = wrap(line, o.width()-2, "  ")
		}
		b.WriteString("  " + line + "\n")
	}
	b.WriteString("\n")
	o.outInert(b.String())
}

// printTask prints a task: its ids and state, its status message, and
// every part of every artifact (the specification's SEND_004: none
// dropped); with --verbose also its history.
func (o *options) printTask(task *a2a.Task) {
	o.field("Task", task.ID)
	o.field("Context", task.ContextID)
	o.field("Status", statusText(task.Status))
	if o.verbose && task.Status.Timestamp != "" {
		o.field("Timestamp", task.Status.Timestamp)
	}
	if m := task.Status.Message; m != nil {
		o.printParts("Message", m.Parts)
	}
	for _, a := range task.Artifacts {
		o.field("Artifact", cmp.Or(a.Name, a.ArtifactID))
		if o.verbose && a.Description != "" {
			o.block("Description", a.Description)
		}
		o.printParts("", a.Parts)
	}
	if o.verbose {
		for _, m := range task.History {
			o.field("History", m.Role)
			o.printParts("", m.Parts)
		}
	}
}

// printParts prints parts: a text part as a Text block (label's block
// when label is given and the part is the only text), a data part as an
// indented Data block, a file part as a File field; with --verbose each
// part's media type and metadata.
func (o *options) printParts(label string, parts a2a.Parts) {
	for _, p := range parts {
		switch p := p.(type) {
		case a2a.TextPart:
			o.block(cmp.Or(label, "Text"), p.Text)
			o.partDetail(p.MediaType, p.Metadata)
		case a2a.DataPart:
			o.block(labelled(label, "Data"), string(indentJSON(p.Data)))
			o.partDetail(p.MediaType, p.Metadata)
		case a2a.FilePart:
			o.field(labelled(label, "File"), fileSummary(p.File))
			o.partDetail("", p.Metadata)
		default:
			o.field("Part", fmt.Sprintf("%T (not shown)", p))
		}
	}
}

// labelled is kind's label under label: "Message data" for a data part
// of a status message, "Data" for an artifact's.
func labelled(label, kind string) string {
	if label == "" {
		return kind
	}
	return label + " " + strings.ToLower(kind)
}

// partDetail prints, with --verbose, a part's media type and metadata.
func (o *options) partDetail(mediaType string, metadata json.RawMessage) {
	if !o.verbose {
		return
	}
	if mediaType != "" {
		o.field("Media type", mediaType)
	}
	if len(metadata) > 0 {
		o.block("Metadata", string(indentJSON(metadata)))
	}
}

// fileSummary is a file part on one line: its name, media type, and size
// (inline bytes) or URI.
func fileSummary(f a2a.FileContent) string {
	where := f.URI
	if where == "" {
		where = fmt.Sprintf("%d bytes", len(f.Bytes)*3/4)
		if b, err := f.Decode(); err == nil {
			where = fmt.Sprintf("%d bytes", len(b))
		}
	}
	return strings.Join(nonEmpty(cmp.Or(f.Name, "(no name)"), f.MIMEType, where), ", ")
}

// statusText is a status's state as the agent wrote it where the package
// maps it onto "unknown" (TASK_STATE_UNSPECIFIED: the specification's
// TASK_POLL_003 asks for it as received), else its short name.
func statusText(st a2a.TaskStatus) string {
	if st.State == a2a.TaskStateUnknown && st.RawState != "" {
		return st.RawState
	}
	return stateText(st.State)
}

// stateText is a task's state: its short name, an unknown one verbatim.
func stateText(s a2a.TaskState) string {
	if s == "" {
		return "(no state)"
	}
	return string(s)
}

// printMessage prints an agent's Message reply (no task).
func (o *options) printMessage(m *a2a.Message) {
	if m.ContextID != "" {
		o.field("Context", m.ContextID)
	}
	if m.TaskID != "" {
		o.field("Task", m.TaskID)
	}
	o.field("Role", m.Role)
	o.printParts("", m.Parts)
}

// printEvent prints one stream event as it arrives, as fields and
// blocks; a status update restates its task, context and state.
func (o *options) printEvent(ev a2a.Event) {
	_, label := eventNames(ev)
	switch e := ev.(type) {
	case *a2a.Task:
		o.field("Event", label)
		o.printTask(e)
	case *a2a.Message:
		o.field("Event", label)
		o.printMessage(e)
	case *a2a.TaskStatusUpdateEvent:
		o.field("Event", label)
		o.field("Task", e.TaskID)
		o.field("Context", e.ContextID)
		o.field("Status", statusText(e.Status))
		if m := e.Status.Message; m != nil {
			o.printParts("Message", m.Parts)
		}
	case *a2a.TaskArtifactUpdateEvent:
		o.field("Event", label)
		o.field("Task", e.TaskID)
		o.field("Context", e.ContextID)
		o.field("Artifact", cmp.Or(e.Artifact.Name, e.Artifact.ArtifactID))
		if e.Append {
			o.field("Append", "true")
		}
		o.printParts("", e.Artifact.Parts)
	}
}

// printCard shows a card: who it is, its signature status, its
// interfaces (the one the command would call marked "(chosen)"), its
// capabilities, extensions, modes, skills and security schemes.
func (o *options) printCard(card *a2a.AgentCard, chosen *a2a.AgentInterface) {
	o.field("Name", card.Name)
	o.field("Version", cmp.Or(card.Version, "(none)"))
	o.field("Signature", o.signatureLine(card.Verification()))
	if card.Description != "" {
		o.block("Description", card.Description)
	}
	if p := card.Provider; p != nil {
		o.field("Provider", strings.Join(nonEmpty(p.Organization, o.shownURL(p.URL)), " "))
	}
	for _, in := range card.Interfaces() {
		v := strings.Join(nonEmpty(o.shownURL(in.URL), in.ProtocolBinding, cmp.Or(in.ProtocolVersion, "(no version)")), " ")
		if in.Tenant != "" {
			v += " tenant " + in.Tenant
		}
		if chosen != nil && in.URL == chosen.URL && strings.EqualFold(in.ProtocolBinding, chosen.ProtocolBinding) && versionOf(in) == chosen.ProtocolVersion {
			v, chosen = v+" (chosen)", nil
		}
		o.field("Interface", v)
	}
	caps := card.Capabilities
	o.field("Streaming", caps.Streaming)
	o.field("Push notifications", caps.PushNotifications)
	o.field("Extended card", card.SupportsAuthenticatedExtendedCard || caps.ExtendedAgentCard)
	for _, x := range caps.Extensions {
		v := x.URI
		if x.Required {
			v += " (required)"
		}
		o.field("Extension", v)
	}
	if len(card.DefaultInputModes) > 0 {
		o.field("Input modes", strings.Join(card.DefaultInputModes, ", "))
	}
	if len(card.DefaultOutputModes) > 0 {
		o.field("Output modes", strings.Join(card.DefaultOutputModes, ", "))
	}
	for _, s := range card.Skills {
		o.field("Skill", s.ID+": "+s.Name)
		if s.Description != "" {
			o.block("Skill description", s.Description)
		}
		for _, ex := range s.Examples {
			o.field("Skill example", ex)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(card.SecuritySchemes)) {
		s := card.SecuritySchemes[name]
		detail := ""
		switch s.Type {
		case "apiKey":
			detail = s.Name + " in " + s.In
		case "http":
			detail = s.Scheme
		case "openIdConnect":
			detail = o.shownURL(s.OpenIDConnectURL)
		}
		o.field("Security scheme", strings.Join(nonEmpty(name+":", s.Type, detail), " "))
	}
}

// versionOf is an interface's version as a client speaks it.
func versionOf(in a2a.AgentInterface) string {
	if strings.HasPrefix(in.ProtocolVersion, "1.") {
		return a2a.ProtocolV10
	}
	return a2a.ProtocolV03
}
