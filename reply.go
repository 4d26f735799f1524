package a2a

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// What a binding's decoders get: a checked reply, and of the call it
// answers only what the call asked (asked), a value; the one constructor
// of *ProtocolError.

// asked is what a reply's decoders know of the call it answers, and all
// they know of it: the method, for errors; the task and the push config
// asked about, for checking that the answer is about them; the redactor
// of the call's errors. A value in each reply (call.asked makes it): a
// decoder never reaches the call, and a push notification, which answers
// no call, is read with one of its own (readNotification).
type asked struct {
	method   string           // as the binding spells it, or what is read ("push notification")
	task     string           // the task results must be about; "" for any
	configID string           // the push config a get asked for; "" for any
	red      *redact.Redactor // redacts the errors about the reply
}

// protocolError is the one constructor of *ProtocolError: the reason, the
// body and the underlying error are redacted here.
func (a asked) protocolError(status int, body []byte, reason string, err error) *ProtocolError {
	return &ProtocolError{Method: a.method, Reason: a.red.Str(reason), StatusCode: status,
		Body: a.red.Bytes(body), Err: a.red.Err(err)}
}

// reply is a checked JSON-RPC reply to a call: its result, and what a
// *ProtocolError about it needs.
type reply struct {
	asked  asked
	status int
	body   []byte          // the whole body, or one stream event's data
	result json.RawMessage // within body
	// valid: body is known to be JSON, a pass that validated it having
	// read it (checkReply's, checkRESTReply's, readCard's), so the
	// decoders' later passes only find the end of what they skip
	// (jsonread.Reader.Trust).
	valid bool
	// ends: where the large values of the body end, as that pass noted
	// them; result starts at offset base of what it read.
	ends *jsonread.Ends // nil for a body too small to hold a value worth noting
	base int
}

// reader returns a pooled reader of r.result, trusting it when r.valid
// and recalling the ends the validating pass noted; Release it once done.
func (r *reply) reader() *jsonread.Reader {
	d := jsonread.NewReader(r.result)
	if r.valid {
		d.Trust()
		d.Recall(r.ends, r.base)
	}
	return d
}

// sameTask returns a *ProtocolError when got, the task a result or event
// is about, is not the task asked about (asked.task). An empty got is a
// mismatch too, unless optional (a message, whose taskId v0.3 leaves
// optional).
func (r *reply) sameTask(got string, optional bool) error {
	want := r.asked.task
	switch {
	case want == "" || got == want || got == "" && optional:
		return nil
	case got == "":
		return r.fault(fmt.Sprintf("result names no task, where task %s was asked about", r.asked.red.Quote(want)), nil)
	}
	return r.fault(fmt.Sprintf("result is about task %s, not %s, the task asked about", r.asked.red.Quote(got), r.asked.red.Quote(want)), nil)
}

// fault is a *ProtocolError about this reply.
func (r *reply) fault(reason string, err error) *ProtocolError {
	return r.asked.protocolError(r.status, r.body, reason, err)
}

// notJSON is the *ProtocolError of a 2xx reply whose body is not JSON
// (syntax is the decoder's error): it says what came instead, the
// Content-Type and the start of the body (a proxy's login page, plain
// text), redacted. The decoder's words ("invalid character '<' …") are
// shown only when the Content-Type claims JSON, where they say what is
// broken; otherwise they are noise, kept in Err for errors.As alone.
func (r *reply) notJSON(contentType string, syntax error) *ProtocolError {
	red := r.asked.red
	e := r.fault(fmt.Sprintf("response is not JSON (Content-Type %s, starting %s)", red.Quote(contentType), red.QuoteStart(r.body)), syntax)
	e.hideErr = !jsonMediaType(contentType)
	return e
}

// jsonMediaType reports whether a Content-Type names JSON:
// application/json, or a type with the +json suffix (RFC 6839).
func jsonMediaType(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// jsonSyntax is the syntax error of b as encoding/json states it, or nil
// when b is one JSON value.
func jsonSyntax(b []byte) error {
	d := jsonread.NewReader(b)
	defer d.Release()
	d.Skip()
	d.End()
	return d.SyntaxError()
}
