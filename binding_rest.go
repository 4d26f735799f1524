package a2a

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The HTTP+JSON (REST) binding of A2A v1.0 (A2A v1.0 §11; the
// google.api.http options of a2a.proto): the same operations as JSON-RPC,
// each an HTTP verb on a path under the interface URL, the tenant the
// path's first segment, the proto's request message (less what the path
// carries) as the body of a POST and as query parameters of a GET. Its
// results are the v1.0 JSON-RPC results without the envelope, so rest10
// decodes with v10's decoders; what differs is how a call is spelt
// (restRequest) and how a reply is checked (restcall.go).

// restRequest is one HTTP+JSON call as a binding spells it.
type restRequest struct {
	// verb is the HTTP method: GET, POST or DELETE.
	verb string
	// path is the operation's path under the interface URL, its
	// variable segments escaped (pathSegment), starting with "/".
	path string
	// query holds the request's fields a GET carries; nil for none.
	query url.Values
	// body is encoded as the request body (JSON); nil sends none.
	body any
	// otherVerb is the verb to try once when the agent refuses verb with
	// 405 (subscribe: the specification's prose says POST, its proto
	// GET); "" for none.
	otherVerb string
}

// errBadSegment is the error of a value that cannot be a path segment.
var errBadSegment = errors.New(`cannot be sent as a URL path segment: "." and ".." are path steps to every URL normaliser, not names`)

// pathSegment escapes s as one path segment, as the HTTP+JSON binding's
// single-segment variables ({id}, {task_id}, {tenant}) are escaped: every
// byte but the unreserved ones ([-_.~0-9A-Za-z]) percent-encoded, "/",
// "?", "#", "%" and control characters included, so a value can never
// address another resource. Its error is for "." and "..", which cannot be
// sent as a segment at all (what names the value in the error is the
// caller's).
func pathSegment(s string) (string, error) {
	if s == "." || s == ".." {
		return "", errBadSegment
	}
	if !strings.ContainsFunc(s, func(r rune) bool { return !unreserved(r) }) {
		return s, nil // nothing to escape, nothing allocated
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case unreserved(rune(c)):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String(), nil
}

// unreserved reports whether r is one of RFC 3986's unreserved
// characters, [-_.~0-9A-Za-z], the only ones a path segment keeps as they
// are.
func unreserved(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_' || r == '.' || r == '~'
}

// tenantPath is the path prefix of tenant: "" for none, else "/" and the
// tenant split at "/", each piece escaped as a segment, joined by "/"
// (Google's services template multi-segment tenants such as
// "projects/p/locations/l"). Its error is for an empty, "." or ".." piece.
func tenantPath(tenant string) (string, error) {
	if tenant == "" {
		return "", nil
	}
	var b strings.Builder
	for piece := range strings.SplitSeq(tenant, "/") {
		if piece == "" {
			return "", fmt.Errorf("tenant %q has an empty path segment (a leading, trailing or doubled \"/\")", tenant)
		}
		seg, err := pathSegment(piece)
		if err != nil {
			return "", fmt.Errorf("tenant %q: its segment %q %w", tenant, piece, err)
		}
		b.WriteByte('/')
		b.WriteString(seg)
	}
	return b.String(), nil
}

// restPath joins the tenant's prefix and the segments of an operation's
// path: literal pieces as they are, and each id (a value given in ids'
// order for each "{}" in pattern) escaped as one segment. Its error names
// what is wrong, without the "a2a: " prefix its caller adds.
func restPath(tenant, pattern string, ids ...string) (string, error) {
	prefix, err := tenantPath(tenant)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(prefix)
	rest := pattern
	for _, id := range ids {
		before, after, ok := strings.Cut(rest, "{}")
		if !ok {
			panic("a2a: restPath: more ids than {} in " + pattern)
		}
		if id == "" { // the path would name another resource
			return "", errors.New("an id is empty")
		}
		seg, err := pathSegment(id)
		if err != nil {
			return "", fmt.Errorf("id %q %w", id, err)
		}
		b.WriteString(before)
		b.WriteString(seg)
		rest = after
	}
	b.WriteString(rest)
	return b.String(), nil
}

// restBase is what every HTTP+JSON call's URL starts with: the interface
// URL base without its query and fragment, a trailing "/" of its path
// dropped; the query (base.RawQuery) is restTarget's.
func restBase(base *url.URL) string {
	u := *base
	u.Fragment, u.RawFragment, u.RawQuery, u.ForceQuery = "", "", "", false
	escaped := strings.TrimSuffix(base.EscapedPath(), "/")
	if p, err := url.PathUnescape(escaped); err == nil {
		u.Path, u.RawPath = p, escaped
	}
	return u.String()
}

// restTarget is the URL of a call: prefix (restBase of the interface URL)
// and path, then baseQuery, the interface URL's own query kept byte for
// byte (a signed URL's "?sig=…" stays valid), and query appended, its
// values percent-encoded.
func restTarget(prefix, baseQuery, path string, query url.Values) string {
	// RFC 3986 escapes (A2A v1.0 §11.5): a space as %20, not the form
	// encoding's "+", which Encode writes only for a space.
	q := baseQuery
	if extra := strings.ReplaceAll(query.Encode(), "+", "%20"); extra != "" {
		if q != "" {
			q += "&"
		}
		q += extra
	}
	if q == "" {
		return prefix + path
	}
	return prefix + path + "?" + q
}

// rest10 is the A2A v1.0 HTTP+JSON binding: v10's results and card, its
// own requests. The tenant goes in the path, not in the bodies.
type rest10 struct {
	v10
}

func (rest10) transport() string { return TransportHTTPJSON }

// withTenant's error is for a tenant that cannot be a path prefix
// (tenantPath): an empty segment, "." or "..".
func (rest10) withTenant(tenant string) (binding, error) {
	if _, err := tenantPath(tenant); err != nil {
		return nil, fmt.Errorf("a2a: %w", err)
	}
	return rest10{v10{tenantName: tenant}}, nil
}

// restSpec makes spec, the v1.0 JSON-RPC spec of a call, its HTTP+JSON
// one: no params, the request verb on the path of pattern with ids (under
// the binding's tenant), body sent. Its error, for an id or tenant that
// cannot be a path, is also kept in spec.err for the builders that return
// none.
func (b rest10) restSpec(spec *callSpec, verb string, body any, pattern string, ids ...string) error {
	spec.params = nil
	spec.rest, spec.err = newRESTRequest(b.tenantName, spec.method, verb, body, pattern, ids...)
	return spec.err
}

// newRESTRequest is the request of an HTTP+JSON call of either version:
// verb on the path of pattern with ids (restPath) under tenant; method
// names the call in its error, which is for an id or tenant that cannot
// be a path. The request is never nil, so a spec builder may set fields
// of it before the call path returns the error.
func newRESTRequest(tenant, method, verb string, body any, pattern string, ids ...string) (*restRequest, error) {
	path, err := restPath(tenant, pattern, ids...)
	if err != nil {
		return &restRequest{verb: verb}, fmt.Errorf("a2a: %s: %w", method, err)
	}
	return &restRequest{verb: verb, path: path, body: body}, nil
}

func (b rest10) sendMessage(msg Message, cfg callConfig, stream bool) (callSpec, error) {
	spec, err := b.v10.sendMessage(msg, cfg, stream)
	if err != nil {
		return callSpec{}, err
	}
	req := spec.params.(sendMessageRequest)
	req.Tenant = ""
	pattern := "/message:send"
	if stream {
		pattern = "/message:stream"
	}
	if err = b.restSpec(&spec, http.MethodPost, req, pattern); err != nil {
		return callSpec{}, err
	}
	return spec, nil
}

func (b rest10) getTask(id string, historyLength *int) callSpec {
	spec := b.v10.getTask(id, historyLength)
	b.restSpec(&spec, http.MethodGet, nil, "/tasks/{}", id)
	if historyLength != nil {
		spec.rest.query = url.Values{"historyLength": {strconv.Itoa(*historyLength)}}
	}
	return spec
}

func (b rest10) cancelTask(id string) callSpec {
	spec := b.v10.cancelTask(id)
	b.restSpec(&spec, http.MethodPost, nil, "/tasks/{}:cancel", id)
	return spec
}

// resubscribe is POST, as the specification's prose and the official
// clients send it, and GET, what its proto says, when the agent refuses
// POST with 405.
func (b rest10) resubscribe(id string) callSpec {
	spec := b.v10.resubscribe(id)
	b.restSpec(&spec, http.MethodPost, nil, "/tasks/{}:subscribe", id)
	spec.rest.otherVerb = http.MethodGet
	return spec
}

func (b rest10) extendedCard() callSpec {
	spec := b.v10.extendedCard()
	b.restSpec(&spec, http.MethodGet, nil, "/extendedAgentCard")
	return spec
}

func (b rest10) listTasks(req ListTasksRequest, historyLength *int) (callSpec, error) {
	spec, err := b.v10.listTasks(req, historyLength)
	if err != nil {
		return callSpec{}, err
	}
	p := spec.params.(listTasksRequest)
	if err = b.restSpec(&spec, http.MethodGet, nil, "/tasks"); err != nil {
		return callSpec{}, err
	}
	spec.rest.query = listTasksQuery(p)
	return spec, nil
}

// listTasksQuery is ListTasksRequest as query parameters (A2A v1.0
// §11.5): camelCase names, unset fields left out.
func listTasksQuery(p listTasksRequest) url.Values {
	q := url.Values{}
	set := func(name, v string) {
		if v != "" {
			q.Set(name, v)
		}
	}
	set("contextId", p.ContextID)
	set("status", p.Status)
	set("pageToken", p.PageToken)
	set("statusTimestampAfter", p.StatusTimestampAfter)
	if p.PageSize != nil {
		q.Set("pageSize", strconv.Itoa(*p.PageSize))
	}
	if p.HistoryLength != nil {
		q.Set("historyLength", strconv.Itoa(*p.HistoryLength))
	}
	if p.IncludeArtifacts != nil {
		q.Set("includeArtifacts", strconv.FormatBool(*p.IncludeArtifacts))
	}
	return q
}

func (b rest10) setPushConfig(cfg TaskPushNotificationConfig) (callSpec, error) {
	spec, err := b.v10.setPushConfig(cfg)
	if err != nil {
		return callSpec{}, err
	}
	// taskId stays in the body as well as the path: some servers read it
	// from the body alone.
	body := spec.params.(*pushConfigV10)
	body.Tenant = ""
	if err = b.restSpec(&spec, http.MethodPost, body, "/tasks/{}/pushNotificationConfigs", cfg.TaskID); err != nil {
		return callSpec{}, err
	}
	return spec, nil
}

func (b rest10) getPushConfig(taskID, configID string) (callSpec, error) {
	spec, err := b.v10.getPushConfig(taskID, configID)
	if err != nil {
		return callSpec{}, err
	}
	if err = b.restSpec(&spec, http.MethodGet, nil, "/tasks/{}/pushNotificationConfigs/{}", taskID, configID); err != nil {
		return callSpec{}, err
	}
	return spec, nil
}

func (b rest10) listPushConfigs(taskID, pageToken string) callSpec {
	spec := b.v10.listPushConfigs(taskID, pageToken)
	b.restSpec(&spec, http.MethodGet, nil, "/tasks/{}/pushNotificationConfigs", taskID)
	if pageToken != "" {
		spec.rest.query = url.Values{"pageToken": {pageToken}}
	}
	return spec
}

func (b rest10) deletePushConfig(taskID, configID string) callSpec {
	spec := b.v10.deletePushConfig(taskID, configID)
	b.restSpec(&spec, http.MethodDelete, nil, "/tasks/{}/pushNotificationConfigs/{}", taskID, configID)
	return spec
}

// hint: a JSON-RPC reply to an HTTP+JSON request is a *ProtocolError
// (restcall.go), not an *RPCError; an HTTP+JSON agent's errors carry
// nothing that points at the other version.
func (rest10) hint(*RPCError) {}
