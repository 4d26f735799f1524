package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// Card validation (card get --validate, A2ACLI_CARD_GET_002): an agent
// card checked against the schema of the A2A version it declares. A2A
// v1.0 has no JSON schema; its rules are the REQUIRED fields of a2a.proto
// v1.0 (AgentCard, AgentInterface, AgentCapabilities, AgentSkill,
// SecurityScheme and its one-of, OAuthFlows) read as ProtoJSON. A2A v0.3's
// are those of its JSON schema (specification/json/a2a.json, v0.3.0).
// Members neither knows are not problems; a null optional member is as if
// absent (ProtoJSON).

// The versions validateCard reports.
const (
	cardV10  = "1.0"     // supportedInterfaces present and not empty
	cardV03  = "0.3"     // url, preferredTransport, additionalInterfaces or a 0.x protocolVersion, and no supportedInterfaces
	cardDual = "1.0+0.3" // both: checked by both versions' rules
)

// maxCardProblems bounds the problems validateCard reports (and the work
// it does past them).
const maxCardProblems = 100

// cardProblem is one way a card breaks the A2A schema: a JSON pointer
// (RFC 6901, "" for the whole card; keys from the card over 128 bytes
// cut) and what is wrong, values from the card quoted and escaped. The
// pointer holds the card's own keys: print it through the inert helpers.
type cardProblem struct {
	Pointer string `json:"pointer"`
	Problem string `json:"problem"`
}

// validateCard checks raw (the card's bytes as received: AgentCard.Raw())
// against the schema of the version it declares: A2A v1.0 (a2a.proto
// v1.0: required fields of AgentCard, AgentInterface, AgentCapabilities,
// AgentSkill, SecurityScheme one-of, types of each member) or v0.3 (its
// JSON schema: protocolVersion, url, preferredTransport…); a card with
// both forms (dual) is checked in both and problems of either reported
// (once each). A card that declares neither is checked as v1.0, the
// version the CLI speaks by default. version is cardV10, cardV03 or
// cardDual ("" when raw is not a JSON object). At most maxCardProblems
// problems, in document order per version; the work is linear in
// len(raw) and memory bounded by its largest member.
func validateCard(raw []byte) (version string, problems []cardProblem) {
	v := &cardValidator{seen: map[cardProblem]bool{}}
	if !json.Valid(raw) {
		var x json.RawMessage // checked, not built: no memory for a huge card
		err := json.Unmarshal(raw, &x)
		v.add("", "the card is not JSON: %s", inert.Printable(fmt.Sprint(err)))
		return "", v.problems
	}
	if kindOf(raw) != "object" {
		v.add("", "the card is %s, want an object", article(kindOf(raw)))
		return "", v.problems
	}
	top := members(raw)
	v10 := kindOf(top["supportedInterfaces"]) == "array" && !emptyArray(top["supportedInterfaces"])
	// A top-level protocolVersion is v0.3's member, but a card that says
	// "1.0" there means v1.0 (and is checked as such).
	v03 := kindOf(top["protocolVersion"]) == "string" && !strings.HasPrefix(str(top["protocolVersion"]), "1") ||
		present(top["protocolVersion"]) && kindOf(top["protocolVersion"]) != "string"
	for _, k := range []string{"url", "preferredTransport", "additionalInterfaces"} {
		if present(top[k]) {
			v03 = true
		}
	}
	switch {
	case v10 && v03:
		version = cardDual
	case v03:
		version = cardV03
	default:
		version = cardV10
	}
	v.dual = version == cardDual
	if version != cardV03 {
		v.cardV10(top)
	}
	if version != cardV10 {
		v.cardV03(top)
	}
	return version, v.problems
}

// cardValidator collects problems, each once, up to maxCardProblems.
type cardValidator struct {
	problems []cardProblem
	seen     map[cardProblem]bool
	dual     bool            // a dual card: a security scheme may be in either version's form
	names    map[string]bool // the card's security scheme names (schemeNames)
}

func (v *cardValidator) full() bool { return len(v.problems) >= maxCardProblems }

func (v *cardValidator) add(ptr, format string, args ...any) {
	p := cardProblem{ptr, fmt.Sprintf(format, args...)}
	if v.full() || v.seen[p] {
		return
	}
	v.seen[p] = true
	v.problems = append(v.problems, p)
}

// fields is one object's members that a rule names.
type fields = map[string]json.RawMessage

// members is the members of the object raw (valid JSON), the last of a
// repeated key winning.
func members(raw json.RawMessage) fields {
	m := fields{}
	eachMember(raw, func(k string, val json.RawMessage) bool { m[k] = val; return true })
	return m
}

// eachMember calls fn on each member of the object raw (valid JSON), one
// decoded at a time, until fn returns false.
func eachMember(raw json.RawMessage, fn func(string, json.RawMessage) bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return
	}
	for dec.More() {
		t, err := dec.Token()
		k, ok := t.(string)
		var val json.RawMessage
		if err != nil || !ok || dec.Decode(&val) != nil || !fn(k, val) {
			return
		}
	}
}

// eachElem calls fn on each element of the array raw (valid JSON), one
// decoded at a time, until fn returns false.
func eachElem(raw json.RawMessage, fn func(int, json.RawMessage) bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return
	}
	for i := 0; dec.More(); i++ {
		var val json.RawMessage
		if dec.Decode(&val) != nil || !fn(i, val) {
			return
		}
	}
}

// kindOf is the JSON type of raw: object, array, string, number,
// boolean, null, or "" for nothing.
func kindOf(raw json.RawMessage) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func article(kind string) string {
	switch kind {
	case "object", "array":
		return "an " + kind
	case "null":
		return "null"
	}
	return "a " + kind
}

func present(raw json.RawMessage) bool { k := kindOf(raw); return k != "" && k != "null" }

func emptyArray(raw json.RawMessage) bool {
	empty := true
	eachElem(raw, func(int, json.RawMessage) bool { empty = false; return false })
	return empty
}

// ptr is base extended by key, escaped per RFC 6901, a key over 128 bytes
// cut.
func ptr(base string, key any) string {
	s := fmt.Sprint(key)
	s = inert.Truncate(s, 128)
	s = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	return base + "/" + s
}

// shown is a string value from the card as a problem quotes it: cut to
// 64 bytes, quoted with its control characters escaped.
func shown(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s)
	return strconv.Quote(inert.Truncate(s, 64))
}

func str(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s)
	return s
}

// member checks obj[key] at base: when required, that it is present; when
// present and not null, that it has type kind. It reports whether the
// member is there with that type.
func (v *cardValidator) member(obj fields, base, key, kind string, required bool) bool {
	raw, p := obj[key], ptr(base, key)
	switch k := kindOf(raw); {
	case k == "" || k == "null" && !required:
		if required {
			v.add(p, "required member %q missing", key)
		}
		return false
	case k != kind:
		v.add(p, "is %s, want %s", article(k), article(kind))
		return false
	}
	return true
}

// object checks obj[key] is an object and returns its members (nil when it
// is not there or not an object).
func (v *cardValidator) object(obj fields, base, key string, required bool) fields {
	if !v.member(obj, base, key, "object", required) {
		return nil
	}
	return members(obj[key])
}

// strings checks obj[key] is an array of strings.
func (v *cardValidator) strings(obj fields, base, key string, required bool) {
	if !v.member(obj, base, key, "array", required) {
		return
	}
	p := ptr(base, key)
	eachElem(obj[key], func(i int, el json.RawMessage) bool {
		if k := kindOf(el); k != "string" {
			v.add(ptr(p, i), "is %s, want a string", article(k))
		}
		return !v.full()
	})
}

// each checks obj[key] is an array and calls fn on each element that is
// an object (an element of another type is a problem).
func (v *cardValidator) each(obj fields, base, key string, required bool, fn func(p string, el fields)) {
	if !v.member(obj, base, key, "array", required) {
		return
	}
	p := ptr(base, key)
	eachElem(obj[key], func(i int, el json.RawMessage) bool {
		if k := kindOf(el); k != "object" {
			v.add(ptr(p, i), "is %s, want an object", article(k))
		} else {
			fn(ptr(p, i), members(el))
		}
		return !v.full()
	})
}

// eachValue checks obj[key] is an object (a map) and calls fn on each
// value that is an object.
func (v *cardValidator) eachValue(obj fields, base, key string, fn func(p, name string, el fields)) {
	if !v.member(obj, base, key, "object", false) {
		return
	}
	p := ptr(base, key)
	eachMember(obj[key], func(name string, el json.RawMessage) bool {
		if k := kindOf(el); k != "object" {
			v.add(ptr(p, name), "is %s, want an object", article(k))
		} else {
			fn(ptr(p, name), name, members(el))
		}
		return !v.full()
	})
}

// oneOf checks obj[key] is a string among allowed.
func (v *cardValidator) oneOf(obj fields, base, key string, required bool, allowed ...string) {
	if v.member(obj, base, key, "string", required) && !slices.Contains(allowed, str(obj[key])) {
		v.add(ptr(base, key), "is %s, want one of %s", shown(obj[key]), strings.Join(allowed, ", "))
	}
}

// binding checks obj[key] names a protocol binding: JSONRPC, GRPC or
// HTTP+JSON as the spec spells them, or a URI (a custom binding).
func (v *cardValidator) binding(obj fields, base, key string, required bool) {
	if !v.member(obj, base, key, "string", required) {
		return
	}
	b := str(obj[key])
	if slices.Contains([]string{"JSONRPC", "GRPC", "HTTP+JSON"}, b) {
		return
	}
	if u, err := url.Parse(b); err == nil && u.Scheme != "" && u.Opaque+u.Host+u.Path != "" {
		return
	}
	v.add(ptr(base, key), "is %s, want JSONRPC, GRPC, HTTP+JSON or a URI naming a custom binding", shown(obj[key]))
}

// absURL checks obj[key] is an absolute URL.
func (v *cardValidator) absURL(obj fields, base, key string, required bool) {
	if !v.member(obj, base, key, "string", required) {
		return
	}
	if u, err := url.Parse(str(obj[key])); err != nil || !u.IsAbs() || u.Host == "" {
		v.add(ptr(base, key), "is %s, want an absolute URL", shown(obj[key]))
	}
}

var majorMinor = regexp.MustCompile(`^[0-9]+\.[0-9]+(\.[0-9]+)?$`)

// cardV10 checks the card's members by A2A v1.0's rules.
func (v *cardValidator) cardV10(card fields) {
	for _, k := range []string{"name", "description", "version"} {
		v.member(card, "", k, "string", true)
	}
	switch k := kindOf(card["supportedInterfaces"]); {
	case k == "" || k == "null":
		v.add("/supportedInterfaces", "required member %q missing: an A2A v1.0 card lists its endpoints there", "supportedInterfaces")
	case k != "array":
		v.add("/supportedInterfaces", "is %s, want an array", article(k))
	case emptyArray(card["supportedInterfaces"]):
		v.add("/supportedInterfaces", "is empty: an A2A v1.0 card lists at least one interface")
	default:
		v.each(card, "", "supportedInterfaces", true, func(p string, in fields) {
			v.absURL(in, p, "url", true)
			v.binding(in, p, "protocolBinding", true)
			if v.member(in, p, "protocolVersion", "string", true) && !majorMinor.MatchString(str(in["protocolVersion"])) {
				v.add(ptr(p, "protocolVersion"), "is %s, want Major.Minor such as \"1.0\"", shown(in["protocolVersion"]))
			}
			v.member(in, p, "tenant", "string", false)
		})
	}
	if caps := v.object(card, "", "capabilities", true); caps != nil {
		for _, k := range []string{"streaming", "pushNotifications", "extendedAgentCard"} {
			v.member(caps, "/capabilities", k, "boolean", false)
		}
		v.extensions(caps, false)
	}
	v.strings(card, "", "defaultInputModes", true)
	v.strings(card, "", "defaultOutputModes", true)
	v.each(card, "", "skills", true, func(p string, sk fields) {
		v.skill(p, sk)
		v.requirementsV10(sk, p, card)
	})
	v.provider(card)
	v.member(card, "", "documentationUrl", "string", false)
	v.member(card, "", "iconUrl", "string", false)
	v.eachValue(card, "", "securitySchemes", func(p, _ string, sc fields) {
		v.schemeV10(p, sc)
	})
	v.requirementsV10(card, "", card)
	v.signatures(card)
}

// cardV03 checks the card's members by A2A v0.3's JSON schema.
func (v *cardValidator) cardV03(card fields) {
	for _, k := range []string{"name", "description", "version", "protocolVersion"} {
		v.member(card, "", k, "string", true)
	}
	v.absURL(card, "", "url", true)
	v.binding(card, "", "preferredTransport", false)
	v.each(card, "", "additionalInterfaces", false, func(p string, in fields) {
		v.absURL(in, p, "url", true)
		v.binding(in, p, "transport", true)
	})
	if caps := v.object(card, "", "capabilities", true); caps != nil {
		for _, k := range []string{"streaming", "pushNotifications", "stateTransitionHistory"} {
			v.member(caps, "/capabilities", k, "boolean", false)
		}
		v.extensions(caps, true)
	}
	v.strings(card, "", "defaultInputModes", true)
	v.strings(card, "", "defaultOutputModes", true)
	v.each(card, "", "skills", true, func(p string, sk fields) {
		v.skill(p, sk)
		v.requirementsV03(sk, p, card)
	})
	v.provider(card)
	v.member(card, "", "documentationUrl", "string", false)
	v.member(card, "", "iconUrl", "string", false)
	v.member(card, "", "supportsAuthenticatedExtendedCard", "boolean", false)
	v.eachValue(card, "", "securitySchemes", func(p, _ string, sc fields) {
		v.schemeV03(p, sc)
	})
	v.requirementsV03(card, "", card)
	v.signatures(card)
}

// extensions checks capabilities.extensions; uri is required in v0.3's
// schema (optional in the proto).
func (v *cardValidator) extensions(caps fields, uriRequired bool) {
	v.each(caps, "/capabilities", "extensions", false, func(p string, ext fields) {
		v.member(ext, p, "uri", "string", uriRequired)
		v.member(ext, p, "description", "string", false)
		v.member(ext, p, "required", "boolean", false)
		v.member(ext, p, "params", "object", false)
	})
}

// skill checks an AgentSkill's members (the same in both versions but for
// its security requirements).
func (v *cardValidator) skill(p string, sk fields) {
	for _, k := range []string{"id", "name", "description"} {
		v.member(sk, p, k, "string", true)
	}
	v.strings(sk, p, "tags", true)
	for _, k := range []string{"examples", "inputModes", "outputModes"} {
		v.strings(sk, p, k, false)
	}
}

func (v *cardValidator) provider(card fields) {
	if pr := v.object(card, "", "provider", false); pr != nil {
		v.member(pr, "/provider", "organization", "string", true)
		v.member(pr, "/provider", "url", "string", true)
	}
}

func (v *cardValidator) signatures(card fields) {
	v.each(card, "", "signatures", false, func(p string, sig fields) {
		v.member(sig, p, "protected", "string", true)
		v.member(sig, p, "signature", "string", true)
		v.member(sig, p, "header", "object", false)
	})
}
