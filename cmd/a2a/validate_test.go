package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"unicode"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// caoliaoCard is a Caoliao-style card (the agent's name, modes, skills and
// its X-API-Key scheme), as a test gives it to a2atest.
func vcCaoliaoCard() *a2a.AgentCard {
	return &a2a.AgentCard{
		Name: "草料二维码", Description: "Answers what a QR code is, inspection records and device questions.", Version: "1.0.0",
		Capabilities:      a2a.AgentCapabilities{Streaming: true, PushNotifications: true},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"application/json", "text/plain"},
		Skills: []a2a.AgentSkill{
			{ID: "entity", Name: "What a code is", Description: "Reads a QR code.", Tags: []string{"qrcode"}, Examples: []string{"这个二维码是什么？" + a2atest.SeedQRCode}},
			{ID: "records", Name: "Inspection records", Description: "Lists records.", Tags: []string{"records"}},
		},
		SecuritySchemes: map[string]a2a.SecurityScheme{"apiKey": {Type: "apiKey", In: "header", Name: "X-API-Key"}},
		Security:        []map[string][]string{{"apiKey": {}}},
	}
}

// servedCard is the card bytes an a2atest agent serves with opts.
func vcServedCard(t *testing.T, opts ...a2atest.Option) []byte {
	t.Helper()
	srv := a2atest.NewServer(opts...)
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	resp, err := http.Get("http://" + u.Host + a2a.AgentCardPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("card: %d %v", resp.StatusCode, err)
	}
	return b
}

// v03Card and v10Card are the Caoliao-style card as a2atest serves it in
// each version.
func vcV03Card(t *testing.T) []byte {
	return vcServedCard(t, a2atest.WithCard(vcCaoliaoCard()))
}

func vcV10Card(t *testing.T) []byte {
	return vcServedCard(t, a2atest.WithCard(vcCaoliaoCard()), a2atest.V10(), a2atest.Bindings(a2a.TransportJSONRPC, a2a.TransportHTTPJSON))
}

// dualCard is the v1.0 card with the v0.3 members added, as dual cards
// carry them (security schemes in both forms, as a2a-python writes them).
func vcDualCard(t *testing.T) []byte {
	var v10, v03 map[string]any
	json.Unmarshal(vcV10Card(t), &v10)
	json.Unmarshal(vcV03Card(t), &v03)
	for _, k := range []string{"url", "protocolVersion", "preferredTransport", "security"} {
		if x, ok := v03[k]; ok {
			v10[k] = x
		}
	}
	sc := v10["securitySchemes"].(map[string]any)["apiKey"].(map[string]any)
	for k, x := range v03["securitySchemes"].(map[string]any)["apiKey"].(map[string]any) {
		sc[k] = x
	}
	b, _ := json.Marshal(v10)
	return b
}

func vcDecodeCard(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// edit applies fn to the card decoded and returns it encoded.
func vcEdit(t *testing.T, b []byte, fn func(m map[string]any)) []byte {
	t.Helper()
	m := vcDecodeCard(t, b)
	fn(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// at is the object at the JSON pointer p (its parent) and the last key.
func vcAt(m map[string]any, p string) (parent any, last string) {
	segs := strings.Split(p, "/")[1:]
	var cur any = m
	for _, s := range segs[:len(segs)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[s]
		case []any:
			i, _ := strconv.Atoi(s)
			cur = c[i]
		}
	}
	return cur, segs[len(segs)-1]
}

func vcRemove(m map[string]any, p string) {
	parent, k := vcAt(m, p)
	delete(parent.(map[string]any), k)
}

func vcSet(m map[string]any, p string, v any) {
	parent, k := vcAt(m, p)
	switch c := parent.(type) {
	case map[string]any:
		c[k] = v
	case []any:
		i, _ := strconv.Atoi(k)
		c[i] = v
	}
}

func vcHasProblem(problems []cardProblem, ptr, text string) bool {
	for _, p := range problems {
		if p.Pointer == ptr && strings.Contains(p.Problem, text) {
			return true
		}
	}
	return false
}

func TestValidateCardValid(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		card          []byte
	}{
		{"v0.3 Caoliao", cardV03, vcV03Card(t)},
		{"v1.0 Caoliao", cardV10, vcV10Card(t)},
		{"dual Caoliao", cardDual, vcDualCard(t)},
		{"v1.0 a2atest default", cardV10, vcServedCard(t, a2atest.V10())},
		{"v0.3 a2atest default", cardV03, vcServedCard(t, a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC))},
		{"unknown members", cardV10, vcEdit(t, vcV10Card(t), func(m map[string]any) {
			m["x-vendor"] = []any{1, "two"}
			m["capabilities"].(map[string]any)["future"] = 3
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			version, problems := validateCard(tc.card)
			if version != tc.version || len(problems) != 0 {
				t.Errorf("validateCard = %q, %v; want %q, none\n%s", version, problems, tc.version, tc.card)
			}
		})
	}
}

func TestValidateCardRequiredRemoved(t *testing.T) {
	v10 := []string{"/name", "/description", "/version", "/capabilities", "/defaultInputModes", "/defaultOutputModes", "/skills",
		"/supportedInterfaces/0/url", "/supportedInterfaces/0/protocolBinding", "/supportedInterfaces/1/protocolVersion",
		"/skills/0/id", "/skills/0/name", "/skills/1/description", "/skills/0/tags",
		"/securitySchemes/apiKey/apiKeySecurityScheme/location", "/securitySchemes/apiKey/apiKeySecurityScheme/name",
		"/securityRequirements/0/schemes"}
	v03 := []string{"/name", "/description", "/version", "/protocolVersion", "/url", "/capabilities", "/defaultInputModes",
		"/defaultOutputModes", "/skills", "/skills/0/id", "/skills/1/name", "/skills/0/description", "/skills/0/tags",
		"/securitySchemes/apiKey/type", "/securitySchemes/apiKey/in", "/securitySchemes/apiKey/name"}
	for _, tc := range []struct {
		card     []byte
		pointers []string
	}{{vcV10Card(t), v10}, {vcV03Card(t), v03}, {vcDualCard(t), v10[:7]}, {vcDualCard(t), []string{"/protocolVersion"}}} {
		for _, p := range tc.pointers {
			card := vcEdit(t, tc.card, func(m map[string]any) { vcRemove(m, p) })
			_, problems := validateCard(card)
			if !vcHasProblem(problems, p, "missing") {
				t.Errorf("%s removed: problems %v do not name it", p, problems)
			}
		}
	}
}

func TestValidateCardWrongTypes(t *testing.T) {
	for _, tc := range []struct {
		card      []byte
		ptr       string
		value     any
		want      string
		wantExtra string
	}{
		{vcV10Card(t), "/name", 5, "is a number, want a string", ""},
		{vcV10Card(t), "/skills", map[string]any{}, "is an object, want an array", ""},
		{vcV10Card(t), "/capabilities/streaming", "yes", "is a string, want a boolean", ""},
		{vcV10Card(t), "/defaultInputModes/0", 1, "is a number, want a string", ""},
		{vcV10Card(t), "/supportedInterfaces", map[string]any{}, "is an object, want an array", ""},
		{vcV10Card(t), "/supportedInterfaces/0/protocolBinding", "rest", `"rest"`, "HTTP+JSON"},
		{vcV10Card(t), "/supportedInterfaces/0/protocolVersion", "one", `"one"`, "Major.Minor"},
		{vcV10Card(t), "/supportedInterfaces/0/url", "/relative", "absolute URL", ""},
		{vcV10Card(t), "/securitySchemes/apiKey/apiKeySecurityScheme/location", "body", `"body"`, "query, header, cookie"},
		{vcV10Card(t), "/skills/0/tags", "qrcode", "is a string, want an array", ""},
		{vcV10Card(t), "/capabilities", []any{}, "is an array, want an object", ""},
		{vcV10Card(t), "/signatures", []any{map[string]any{"protected": "x"}}, "", ""},
		{vcV03Card(t), "/preferredTransport", "grpc-web", `"grpc-web"`, "JSONRPC"},
		{vcV03Card(t), "/securitySchemes/apiKey/in", "body", `"body"`, "cookie"},
		{vcV03Card(t), "/securitySchemes/apiKey/type", "magic", `"magic"`, "apiKey"},
		{vcV03Card(t), "/security/0/apiKey", "all", "is a string, want an array", ""},
		{vcV03Card(t), "/supportsAuthenticatedExtendedCard", "true", "is a string, want a boolean", ""},
	} {
		card := vcEdit(t, tc.card, func(m map[string]any) { vcSet(m, tc.ptr, tc.value) })
		_, problems := validateCard(card)
		if tc.ptr == "/signatures" {
			if !vcHasProblem(problems, "/signatures/0/signature", "missing") {
				t.Errorf("signature without signature: %v", problems)
			}
			continue
		}
		if !vcHasProblem(problems, tc.ptr, tc.want) || !vcHasProblem(problems, tc.ptr, tc.wantExtra) {
			t.Errorf("%s = %v: problems %v, want %q and %q", tc.ptr, tc.value, problems, tc.want, tc.wantExtra)
		}
	}
}

func TestValidateCardSecurity(t *testing.T) {
	card := vcEdit(t, vcV10Card(t), func(m map[string]any) {
		m["securitySchemes"] = map[string]any{
			"two":    map[string]any{"apiKeySecurityScheme": map[string]any{"location": "header", "name": "k"}, "mtlsSecurityScheme": map[string]any{}},
			"none":   map[string]any{"type": "apiKey", "in": "header", "name": "k"},
			"oauth":  map[string]any{"oauth2SecurityScheme": map[string]any{"flows": map[string]any{"clientCredentials": map[string]any{"scopes": map[string]any{"a": 1}}}}},
			"oauth2": map[string]any{"oauth2SecurityScheme": map[string]any{"flows": map[string]any{}}},
		}
		m["securityRequirements"] = []any{map[string]any{"schemes": map[string]any{"ghost": map[string]any{"list": []any{"x"}}, "two": []any{"a"}}}}
	})
	_, problems := validateCard(card)
	for _, want := range []cardProblem{
		{"/securitySchemes/two", "apiKeySecurityScheme and mtlsSecurityScheme"},
		{"/securitySchemes/none", "names no kind of scheme"},
		{"/securitySchemes/oauth/oauth2SecurityScheme/flows/clientCredentials/tokenUrl", "missing"},
		{"/securitySchemes/oauth/oauth2SecurityScheme/flows/clientCredentials/scopes/a", "is a number"},
		{"/securitySchemes/oauth2/oauth2SecurityScheme/flows", "has 0 flows, want exactly one"},
		{"/securityRequirements/0/schemes/ghost", "does not declare"},
	} {
		if !vcHasProblem(problems, want.Pointer, want.Problem) {
			t.Errorf("problems %v lack %v", problems, want)
		}
	}
	if vcHasProblem(problems, "/securityRequirements/0/schemes/two", "") {
		t.Errorf("a bare scope array is one of the spellings agents send: %v", problems)
	}
}

func TestValidateCardV10WithoutSupportedInterfaces(t *testing.T) {
	for name, fn := range map[string]func(m map[string]any){
		"absent": func(m map[string]any) { delete(m, "supportedInterfaces") },
		"empty":  func(m map[string]any) { m["supportedInterfaces"] = []any{} },
		"null":   func(m map[string]any) { m["supportedInterfaces"] = nil },
	} {
		version, problems := validateCard(vcEdit(t, vcV10Card(t), fn))
		if version != cardV10 || !vcHasProblem(problems, "/supportedInterfaces", "") {
			t.Errorf("%s: %q %v, want v1.0 and a problem at /supportedInterfaces", name, version, problems)
		}
	}
	// A card that says protocolVersion 1.0 at the top (v0.3's member) but
	// has no url means v1.0: supportedInterfaces is what it lacks.
	version, problems := validateCard(vcEdit(t, vcV10Card(t), func(m map[string]any) { delete(m, "supportedInterfaces"); m["protocolVersion"] = "1.0" }))
	if version != cardV10 || !vcHasProblem(problems, "/supportedInterfaces", "missing") {
		t.Errorf("protocolVersion 1.0: %q %v", version, problems)
	}
	// A card that declares no version at all is checked as v1.0.
	version, problems = validateCard([]byte(`{}`))
	if version != cardV10 || !vcHasProblem(problems, "/supportedInterfaces", "missing") || !vcHasProblem(problems, "/name", "missing") {
		t.Errorf("{}: %q %v", version, problems)
	}
}

func TestValidateCardHostile(t *testing.T) {
	for _, tc := range []struct{ name, card, want string }{
		{"not JSON", `{"name":`, "not JSON"},
		{"array", `[1,2]`, "is an array, want an object"},
		{"string", `"card"`, "is a string"},
		{"empty", ``, "not JSON"},
	} {
		version, problems := validateCard([]byte(tc.card))
		if version != "" || len(problems) != 1 || !strings.Contains(problems[0].Problem, tc.want) {
			t.Errorf("%s: %q %v", tc.name, version, problems)
		}
	}

	// A huge card: 50000 skills, each wrong; a deep nest; a long key.
	var b strings.Builder
	b.WriteString(`{"supportedInterfaces":[{"url":"https://a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"skills":[`)
	for i := range 50000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":1}`)
	}
	b.WriteString(`],"x":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`)
	_, problems := validateCard([]byte(b.String()))
	if len(problems) != maxCardProblems {
		t.Errorf("%d problems, want the bound %d", len(problems), maxCardProblems)
	}

	// Many schemes, many skills naming them: linear work (the scheme
	// names are read once per card, not once per skill).
	many := vcEdit(t, vcV10Card(t), func(m map[string]any) {
		schemes, skills := map[string]any{}, []any{}
		for i := range 5000 {
			name := "s" + strconv.Itoa(i)
			schemes[name] = map[string]any{"httpAuthSecurityScheme": map[string]any{"scheme": "Bearer"}}
			skills = append(skills, map[string]any{"id": name, "name": name, "description": "d", "tags": []any{},
				"securityRequirements": []any{map[string]any{"schemes": map[string]any{name: map[string]any{}}}}})
		}
		m["securitySchemes"], m["skills"] = schemes, skills
		delete(m, "securityRequirements")
	})
	if _, problems := validateCard(many); len(problems) != 0 {
		t.Errorf("many valid skills: %v", problems[:min(3, len(problems))])
	}

	// Control characters in values and keys: the problem text is inert;
	// the pointer keeps the key (the printer makes it inert), cut.
	card := vcEdit(t, vcV10Card(t), func(m map[string]any) {
		m["supportedInterfaces"].([]any)[0].(map[string]any)["protocolBinding"] = "\x1b[31mred\u202e"
		m["securitySchemes"].(map[string]any)[strings.Repeat("k", 300)+"\x1b"] = 1
	})
	_, problems = validateCard(card)
	for _, p := range problems {
		if strings.ContainsFunc(p.Problem, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) {
			t.Errorf("problem not inert: %q", p.Problem)
		}
		if len(p.Pointer) > 200 {
			t.Errorf("pointer not cut: %d bytes", len(p.Pointer))
		}
	}
	if !vcHasProblem(problems, "/supportedInterfaces/0/protocolBinding", `\x1b[31mred\u202e`) {
		t.Errorf("problems %v", problems)
	}
}
