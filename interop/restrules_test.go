package interop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	a2apb03 "github.com/a2aproject/a2a-go/a2apb"
	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// The HTTP+JSON requests the client sends are checked against the
// google.api.http options of the proto's RPCs (the HTTP rules: verb, path
// template, body field; googleapis google/api/http.proto), read from the
// compiled descriptors the official Go SDK ships: lf.a2a.v1.A2AService
// (a2a-go v2's a2apb/v1, A2A v1.0) and a2a.v1.A2AService (a2a-go v0.3.15's
// a2apb, the v0.3 proto that a2a-go v2's compat layer speaks). No template
// is written down here: every rule comes from the descriptor.

// restRules are the HTTP rules of one A2A service.
type restRules struct {
	version string // the A2A version whose proto they come from: "1.0" or "0.3"
	service protoreflect.FullName
	rules   []*restRule
}

// restRule is one HTTP binding of an RPC: its rule or one of the rule's
// additional_bindings.
type restRule struct {
	rpc      protoreflect.MethodDescriptor
	verb     string // GET, POST, DELETE, …
	template string // as the proto writes it, for messages
	segs     []tmplSeg
	custom   string // the template's ":verb" suffix; "" for none
	body     string // "*", a field of the request, or "" for no body
	tenant   bool   // the template binds the field "tenant"
}

// tmplSeg is one segment of a path template: a literal, "*" (one
// segment) or "**" (the rest), belonging to a variable when field is set.
type tmplSeg struct {
	literal string // "" for a wildcard
	deep    bool   // "**"
	field   string // the variable the segment is part of; "" for none
}

// v10Rules and v03Rules are the rules of the v1.0 and the v0.3 proto.
var (
	v10Rules = mustRules("1.0", a2apb.File_a2av1_proto)
	v03Rules = mustRules("0.3", v03Proto())
)

// v03Proto is the v0.3 proto that a2a-go v0.3.15 ships (a2apb, package
// a2a.v1), with the one change that gives back the A2A v0.3.0 wire:
// Message's field 5 is "content" in the v0.3.0 proto (tag v0.3.0,
// specification/grpc/a2a.proto) and in what every v0.3 REST server reads
// (a2a-go v2's compat layer, a2apb/v0/pbjson), "parts" in a2a-go's later
// copy. Its HTTP rules are the copy's (v0.3.0's push create template says
// "task/*", a typo the copy fixes to "tasks/*"). The requests are then
// read as dynamic messages of this descriptor.
func v03Proto() protoreflect.FileDescriptor {
	fdp := protodesc.ToFileDescriptorProto(a2apb03.File_a2a_proto)
	renamed := false
	for _, m := range fdp.GetMessageType() {
		if m.GetName() != "Message" {
			continue
		}
		for _, f := range m.GetField() {
			if f.GetNumber() == 5 && f.GetName() == "parts" {
				f.Name, f.JsonName, renamed = proto.String("content"), proto.String("content"), true
			}
		}
	}
	if !renamed {
		panic("a2a-go v0.3.15's a2a.v1.Message has no field 5 named parts: v03Proto's change is out of date")
	}
	fd, err := protodesc.NewFile(fdp, protoregistry.GlobalFiles)
	if err != nil {
		panic(err)
	}
	return fd
}

func mustRules(version string, fd protoreflect.FileDescriptor) *restRules {
	rs, err := readRules(version, fd)
	if err != nil {
		panic(err)
	}
	return rs
}

// readRules reads the HTTP rule of every RPC of fd's one service, and the
// rule's additional bindings.
func readRules(version string, fd protoreflect.FileDescriptor) (*restRules, error) {
	if fd.Services().Len() != 1 {
		return nil, fmt.Errorf("%s declares %d services, want 1", fd.Path(), fd.Services().Len())
	}
	svc := fd.Services().Get(0)
	rs := &restRules{version: version, service: svc.FullName()}
	for i := range svc.Methods().Len() {
		md := svc.Methods().Get(i)
		rule, ok := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
		if !ok || rule == nil {
			return nil, fmt.Errorf("%s has no google.api.http option", md.FullName())
		}
		for _, r := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
			parsed, err := newRule(md, r)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", md.FullName(), err)
			}
			rs.rules = append(rs.rules, parsed)
		}
	}
	return rs, nil
}

// newRule parses one HttpRule of md.
func newRule(md protoreflect.MethodDescriptor, r *annotations.HttpRule) (*restRule, error) {
	out := &restRule{rpc: md, body: r.GetBody()}
	switch p := r.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		out.verb, out.template = http.MethodGet, p.Get
	case *annotations.HttpRule_Post:
		out.verb, out.template = http.MethodPost, p.Post
	case *annotations.HttpRule_Delete:
		out.verb, out.template = http.MethodDelete, p.Delete
	case *annotations.HttpRule_Put:
		out.verb, out.template = http.MethodPut, p.Put
	case *annotations.HttpRule_Patch:
		out.verb, out.template = http.MethodPatch, p.Patch
	default:
		return nil, fmt.Errorf("HTTP rule %v has no verb this check reads", r)
	}
	var err error
	if out.segs, out.custom, err = parseTemplate(out.template); err != nil {
		return nil, err
	}
	for _, s := range out.segs {
		out.tenant = out.tenant || s.field == "tenant"
	}
	return out, nil
}

// parseTemplate parses a path template (http.proto: "/" Segments
// [":" Verb]; a segment "*", "**", a literal or {field[=Segments]}, where
// {field} is {field=*}) into its segments, each variable's spelt out, and
// its custom verb.
func parseTemplate(tmpl string) ([]tmplSeg, string, error) {
	rest, ok := strings.CutPrefix(tmpl, "/")
	if !ok {
		return nil, "", fmt.Errorf("template %q does not start with /", tmpl)
	}
	custom := ""
	if i := strings.LastIndexByte(rest, ':'); i > strings.LastIndexByte(rest, '}') && i > strings.LastIndexByte(rest, '/') {
		rest, custom = rest[:i], rest[i+1:]
	}
	// Split at the "/" outside braces.
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '{':
			depth++
		case '}':
			depth--
		case '/':
			if depth == 0 {
				parts = append(parts, rest[start:i])
				start = i + 1
			}
		}
	}
	parts = append(parts, rest[start:])
	var segs []tmplSeg
	one := func(s, field string) error {
		switch {
		case s == "":
			return fmt.Errorf("template %q has an empty segment", tmpl)
		case s == "*":
			segs = append(segs, tmplSeg{field: field})
		case s == "**":
			segs = append(segs, tmplSeg{deep: true, field: field})
		case strings.ContainsAny(s, "{}=:"):
			return fmt.Errorf("template %q: segment %q is not a literal", tmpl, s)
		default:
			segs = append(segs, tmplSeg{literal: s, field: field})
		}
		return nil
	}
	for _, part := range parts {
		inner, isVar := strings.CutPrefix(part, "{")
		if !isVar {
			if err := one(part, ""); err != nil {
				return nil, "", err
			}
			continue
		}
		inner, ok := strings.CutSuffix(inner, "}")
		if !ok {
			return nil, "", fmt.Errorf("template %q: unclosed variable %q", tmpl, part)
		}
		field, sub, hasSub := strings.Cut(inner, "=")
		if !hasSub {
			sub = "*"
		}
		for _, s := range strings.Split(sub, "/") {
			if err := one(s, field); err != nil {
				return nil, "", err
			}
		}
	}
	return segs, custom, nil
}

// match matches an escaped request path (under the interface URL) against
// the rule's template. It returns each variable's value: its segments
// percent-decoded and joined by "/". A segment a variable binds must be
// escaped as http.proto asks of a single-segment variable ({id=*}): a raw
// ":" there (the custom verb's separator), an empty, "." or ".." segment
// or a bad escape fails the match.
func (r *restRule) match(escaped string) (map[string]string, bool) {
	p, ok := strings.CutPrefix(escaped, "/")
	if !ok {
		return nil, false
	}
	if r.custom != "" {
		i := strings.LastIndexByte(p, ':')
		if i < 0 || p[i+1:] != r.custom {
			return nil, false
		}
		p = p[:i]
	}
	segs := strings.Split(p, "/")
	vars := map[string][]string{}
	for i, ts := range r.segs {
		if i >= len(segs) {
			return nil, false
		}
		if ts.deep {
			for _, s := range segs[i:] {
				dec, err := url.PathUnescape(s)
				if err != nil {
					return nil, false
				}
				vars[ts.field] = append(vars[ts.field], dec)
			}
			segs = segs[:i+1]
			break
		}
		seg := segs[i]
		if seg == "" || seg == "." || seg == ".." || strings.ContainsRune(seg, ':') {
			return nil, false
		}
		if ts.literal != "" && seg != ts.literal {
			return nil, false
		}
		dec, err := url.PathUnescape(seg)
		if err != nil {
			return nil, false
		}
		if ts.field != "" {
			vars[ts.field] = append(vars[ts.field], dec)
		}
	}
	if len(segs) != len(r.segs) {
		return nil, false
	}
	out := map[string]string{}
	for k, v := range vars {
		out[k] = strings.Join(v, "/")
	}
	return out, true
}

// restExchange is one HTTP+JSON request as a peer received it.
type restExchange struct {
	method string
	path   string // escaped, under the interface URL
	query  url.Values
	header http.Header
	body   []byte
}

// restFault is one way a request breaks the proto's HTTP rules; kind
// ("verb", "path", "pathprefix", "body", "bodyform", "query",
// "required:<field>", "header", and "tenant" from a restGuard) keys the
// deviations the tests tolerate (restTolerated).
type restFault struct {
	kind, msg string
}

// check reads ex as a call of one of the RPCs: its path must match a rule
// (with the tenant for a peer served under one, else without: tenant),
// its verb must be that rule's; the body must decode with protojson
// (unknown fields refused) into the request message (body "*"), into the
// named field's message (body "config") or be absent (no body), the query
// parameters naming, by JSON name, fields the path and body leave (only
// without a "*" body), each value in the field's type (enum by name, bool
// true or false, decimal integers); a path variable repeated in the body
// must hold the same value; the request message then has every field the
// proto marks REQUIRED. Headers: A2A-Version "1.0" for v1.0, none or "0.3"
// for v0.3; Content-Type application/json when there is a body, and none
// without one (REST reference §1.1: a bodiless POST); Accept
// text/event-stream on a streaming RPC. It returns the RPC's name ("" if
// no rule matches the path) and the faults.
func (rs *restRules) check(ex restExchange, tenant bool) (string, []restFault) {
	var byPath, byVerb *restRule
	var vars map[string]string
	for _, r := range rs.rules {
		if r.tenant != tenant {
			continue
		}
		v, ok := r.match(ex.path)
		if !ok {
			continue
		}
		if byPath == nil {
			byPath, vars = r, v
		}
		if r.verb == ex.method {
			byVerb, vars = r, v
			break
		}
	}
	if byPath == nil {
		return "", []restFault{{"path", fmt.Sprintf("%s %s matches no HTTP rule of %s", ex.method, ex.path, rs.service)}}
	}
	var faults []restFault
	add := func(kind, format string, args ...any) {
		faults = append(faults, restFault{kind, fmt.Sprintf(format, args...)})
	}
	r := byVerb
	if r == nil {
		r = byPath
		add("verb", "%s is %s %s in the proto, sent as %s", r.rpc.Name(), r.verb, r.template, ex.method)
	}
	mt := dynamicpb.NewMessageType(r.rpc.Input())
	msg := mt.New().Interface()
	fields := mt.Descriptor().Fields()
	strict := protojson.UnmarshalOptions{}
	body := bytes.TrimSpace(ex.body)

	switch r.body {
	case "*":
		if len(body) > 0 {
			if err := strict.Unmarshal(body, msg); err != nil {
				add("body", "body is not a %s: %v", mt.Descriptor().FullName(), err)
			}
		}
		if len(ex.query) > 0 {
			add("query", `query %q beside a body "*", which takes every field the path leaves`, ex.query.Encode())
		}
	case "":
		if len(body) > 0 {
			add("body", "%s has no body in the proto; sent %d bytes", r.rpc.Name(), len(body))
		}
	default:
		fd := fields.ByName(protoreflect.Name(r.body))
		if fd == nil || fd.Message() == nil {
			add("body", "body field %q is not a message field of %s", r.body, mt.Descriptor().FullName())
			break
		}
		sub := msg.ProtoReflect().Mutable(fd).Message().Interface()
		err := strict.Unmarshal(body, sub)
		if err == nil {
			break
		}
		// The whole request as the body is a fault of its own kind, and
		// the body is still checked.
		if whole := strict.Unmarshal(body, msg); whole == nil {
			add("bodyform", "body is the whole %s, where the proto's body is its field %s", mt.Descriptor().FullName(), r.body)
			break
		}
		add("body", "body is not the field %s (%s): %v", r.body, fd.Message().FullName(), err)
	}

	if r.body != "*" {
		for name, values := range ex.query {
			fd := fields.ByJSONName(name)
			if fd == nil || vars[string(fd.Name())] != "" || string(fd.Name()) == r.body {
				add("query", "query parameter %q is no field of %s that the path and body leave", name, mt.Descriptor().FullName())
				continue
			}
			if err := setFromQuery(msg, fd, values); err != nil {
				add("query", "query parameter %s=%q: %v", name, values, err)
			}
		}
	}

	for name, value := range vars {
		fd := fields.ByName(protoreflect.Name(name))
		if fd == nil || fd.Kind() != protoreflect.StringKind || fd.IsList() {
			add("path", "path variable %q is no string field of %s", name, mt.Descriptor().FullName())
			continue
		}
		m := msg.ProtoReflect()
		switch inBody := m.Get(fd).String(); {
		case !m.Has(fd) || inBody == value:
		case strings.HasPrefix(value, inBody+"/"):
			add("pathprefix", "the body's %s %q is the path's %q less its last segments", fd.JSONName(), inBody, value)
		default:
			add("path", "the body's %s %q differs from the path's %q", fd.JSONName(), inBody, value)
		}
		m.Set(fd, protoreflect.ValueOfString(value))
	}
	for _, field := range missingRequired(msg.ProtoReflect(), "") {
		add("required:"+field, "%s lacks the REQUIRED field %s", mt.Descriptor().FullName(), field)
	}

	switch got := ex.header.Values("A2A-Version"); {
	case rs.version == "1.0" && !slices.Equal(got, []string{"1.0"}):
		add("header", "A2A-Version %q, want exactly \"1.0\"", got)
	case rs.version == "0.3" && len(got) > 0 && !slices.Equal(got, []string{"0.3"}):
		add("header", "A2A-Version %q on a v0.3 request, want none or \"0.3\"", got)
	}
	switch ct := ex.header.Get("Content-Type"); {
	case len(body) > 0:
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			add("header", "Content-Type %q on a body, want application/json", ct)
		}
	case ct != "":
		add("header", "Content-Type %q on a request without a body", ct)
	}
	if streaming, accept := r.rpc.IsStreamingServer(), ex.header.Get("Accept"); streaming != strings.Contains(accept, "text/event-stream") {
		add("header", "Accept %q on %s, whose reply is %s", accept, r.rpc.Name(), map[bool]string{true: "an event stream", false: "one message"}[streaming])
	}
	return string(r.rpc.Name()), faults
}

// setFromQuery sets fd of msg from query values as http.proto maps them:
// a repeated field from every value, any other from exactly one; an
// integer in decimal, a bool "true" or "false", an enum by its name, a
// Timestamp in RFC 3339, a string as it is.
func setFromQuery(msg proto.Message, fd protoreflect.FieldDescriptor, values []string) error {
	if !fd.IsList() && len(values) != 1 {
		return fmt.Errorf("%d values for a singular field", len(values))
	}
	conv := func(v string) (any, error) {
		switch fd.Kind() {
		case protoreflect.BoolKind:
			if v != "true" && v != "false" {
				return nil, errors.New(`a bool is "true" or "false"`)
			}
			return v == "true", nil
		case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
			protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, errors.New("not a decimal integer")
			}
			return n, nil
		case protoreflect.EnumKind:
			if fd.Enum().Values().ByName(protoreflect.Name(v)) == nil {
				return nil, fmt.Errorf("not a value name of %s", fd.Enum().FullName())
			}
			return v, nil
		case protoreflect.StringKind:
			return v, nil
		case protoreflect.MessageKind:
			if fd.Message().FullName() == "google.protobuf.Timestamp" {
				return v, nil
			}
		}
		return nil, fmt.Errorf("a %s field cannot be a query parameter here", fd.Kind())
	}
	var value any
	if fd.IsList() {
		var list []any
		for _, v := range values {
			x, err := conv(v)
			if err != nil {
				return err
			}
			list = append(list, x)
		}
		value = list
	} else {
		x, err := conv(values[0])
		if err != nil {
			return err
		}
		value = x
	}
	b, err := json.Marshal(map[string]any{fd.JSONName(): value})
	if err != nil {
		return err
	}
	tmp := msg.ProtoReflect().New().Interface()
	if err := protojson.Unmarshal(b, tmp); err != nil {
		return err
	}
	proto.Merge(msg, tmp)
	return nil
}
