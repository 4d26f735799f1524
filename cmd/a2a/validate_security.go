package main

import (
	"encoding/json"
	"strings"
)

// The security rules of card validation (validate.go): security schemes
// and the requirements that name them, in each version's form.

// The v1.0 SecurityScheme one-of: its member name → the v0.3 type it is.
var schemeWrappers = []struct{ key, v03 string }{
	{"apiKeySecurityScheme", "apiKey"},
	{"httpAuthSecurityScheme", "http"},
	{"oauth2SecurityScheme", "oauth2"},
	{"openIdConnectSecurityScheme", "openIdConnect"},
	{"mtlsSecurityScheme", "mutualTLS"},
}

// schemeV10 checks a security scheme in A2A v1.0's form: exactly one
// member of the one-of, with its required members. On a dual card a
// scheme in v0.3's form alone ("type", no wrapper) is checked as v0.3.
func (v *cardValidator) schemeV10(p string, sc fields) {
	var set []string
	for _, w := range schemeWrappers {
		if present(sc[w.key]) {
			set = append(set, w.key)
		}
	}
	switch {
	case len(set) == 0 && v.dual && present(sc["type"]):
		v.schemeV03(p, sc)
		return
	case len(set) == 0:
		v.add(p, "names no kind of scheme: want one of apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme")
		return
	case len(set) > 1:
		v.add(p, "has %s: a scheme is one kind only", strings.Join(set, " and "))
		return
	}
	key := set[0]
	in := v.object(sc, p, key, true)
	if in == nil {
		return
	}
	q := ptr(p, key)
	v.member(in, q, "description", "string", false)
	switch key {
	case "apiKeySecurityScheme":
		v.oneOf(in, q, "location", true, "query", "header", "cookie")
		v.member(in, q, "name", "string", true)
	case "httpAuthSecurityScheme":
		v.member(in, q, "scheme", "string", true)
		v.member(in, q, "bearerFormat", "string", false)
	case "oauth2SecurityScheme":
		v.member(in, q, "oauth2MetadataUrl", "string", false)
		if flows := v.object(in, q, "flows", true); flows != nil {
			v.flows(ptr(q, "flows"), flows, true)
		}
	case "openIdConnectSecurityScheme":
		v.member(in, q, "openIdConnectUrl", "string", true)
	}
}

// schemeV03 checks a security scheme in A2A v0.3's form: its "type" and
// the members that type requires. On a dual card a scheme in v1.0's form
// alone is checked as v1.0.
func (v *cardValidator) schemeV03(p string, sc fields) {
	if v.dual && !present(sc["type"]) {
		for _, w := range schemeWrappers {
			if present(sc[w.key]) {
				v.schemeV10(p, sc)
				return
			}
		}
	}
	v.oneOf(sc, p, "type", true, "apiKey", "http", "oauth2", "openIdConnect", "mutualTLS")
	v.member(sc, p, "description", "string", false)
	switch str(sc["type"]) {
	case "apiKey":
		v.oneOf(sc, p, "in", true, "query", "header", "cookie")
		v.member(sc, p, "name", "string", true)
	case "http":
		v.member(sc, p, "scheme", "string", true)
		v.member(sc, p, "bearerFormat", "string", false)
	case "oauth2":
		v.member(sc, p, "oauth2MetadataUrl", "string", false)
		if flows := v.object(sc, p, "flows", true); flows != nil {
			v.flows(ptr(p, "flows"), flows, false)
		}
	case "openIdConnect":
		v.member(sc, p, "openIdConnectUrl", "string", true)
	}
}

// flows checks OAuthFlows: each flow's required URLs and scopes; in v1.0
// (oneOf) exactly one flow, in v0.3 any of them.
func (v *cardValidator) flows(p string, flows fields, oneOf bool) {
	kinds := []struct {
		key      string
		required []string
		v10only  bool
	}{
		{"authorizationCode", []string{"authorizationUrl", "tokenUrl"}, false},
		{"clientCredentials", []string{"tokenUrl"}, false},
		{"deviceCode", []string{"deviceAuthorizationUrl", "tokenUrl"}, true},
		{"implicit", []string{"authorizationUrl"}, false},
		{"password", []string{"tokenUrl"}, false},
	}
	n := 0
	for _, k := range kinds {
		if k.v10only && !oneOf {
			continue
		}
		f := v.object(flows, p, k.key, false)
		if f == nil {
			continue
		}
		n++
		q := ptr(p, k.key)
		for _, r := range k.required {
			v.member(f, q, r, "string", true)
		}
		v.member(f, q, "refreshUrl", "string", false)
		if v.member(f, q, "scopes", "object", true) {
			eachMember(f["scopes"], func(name string, d json.RawMessage) bool {
				if k := kindOf(d); k != "string" {
					v.add(ptr(ptr(q, "scopes"), name), "is %s, want a string (the scope's description)", article(k))
				}
				return !v.full()
			})
		}
		if oneOf {
			v.member(f, q, "pkceRequired", "boolean", false)
		}
	}
	if oneOf && n != 1 {
		v.add(p, "has %d flows, want exactly one (authorizationCode, clientCredentials, deviceCode, implicit or password)", n)
	}
}

// schemeNames is the names the card's securitySchemes declares, read
// once per card.
func (v *cardValidator) schemeNames(card fields) map[string]bool {
	if v.names != nil {
		return v.names
	}
	names := map[string]bool{}
	v.names = names
	if kindOf(card["securitySchemes"]) == "object" {
		eachMember(card["securitySchemes"], func(k string, _ json.RawMessage) bool { names[k] = true; return true })
	}
	return names
}

// requirementsV10 checks obj's securityRequirements (the card's or a
// skill's): each {"schemes": {name: scopes}}, scopes as {"list": [...]},
// {} or a bare array (the three spellings agents send), each name one of
// the card's schemes.
func (v *cardValidator) requirementsV10(obj fields, base string, card fields) {
	names := v.schemeNames(card)
	v.each(obj, base, "securityRequirements", false, func(p string, req fields) {
		if !v.member(req, p, "schemes", "object", true) {
			return
		}
		q := ptr(p, "schemes")
		eachMember(req["schemes"], func(name string, scopes json.RawMessage) bool {
			r := ptr(q, name)
			if !names[name] {
				v.add(r, "names a scheme securitySchemes does not declare")
			}
			switch kindOf(scopes) {
			case "object":
				v.strings(members(scopes), r, "list", false)
			case "array":
				v.strings(fields{name: scopes}, q, name, false)
			default:
				v.add(r, "is %s, want {\"list\": [scopes]}", article(kindOf(scopes)))
			}
			return !v.full()
		})
	})
}

// requirementsV03 checks obj's security (the card's or a skill's): each
// an object of scheme name → array of scopes, each name one of the card's
// schemes.
func (v *cardValidator) requirementsV03(obj fields, base string, card fields) {
	if !v.member(obj, base, "security", "array", false) {
		return
	}
	names := v.schemeNames(card)
	p := ptr(base, "security")
	eachElem(obj["security"], func(i int, el json.RawMessage) bool {
		q := ptr(p, i)
		if k := kindOf(el); k != "object" {
			v.add(q, "is %s, want an object", article(k))
			return !v.full()
		}
		eachMember(el, func(name string, scopes json.RawMessage) bool {
			if !names[name] {
				v.add(ptr(q, name), "names a scheme securitySchemes does not declare")
			}
			v.strings(fields{name: scopes}, q, name, true)
			return !v.full()
		})
		return !v.full()
	})
}
