package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// a2a conformance (A2ACLI_CONFORM_001, T2), narrowed as the a2a-cli
// project's own OQ5 suggested (checklist §10.8): the TCK tests agents it
// controls, so the CLI checks only what it can see without changing
// anything on the agent: the card's validity, each interface's
// reachability and error mapping, and declared against actual
// capabilities. It never sends a message and never creates, cancels or
// deletes anything: every probe reads an id that cannot exist.

// checkResult is one conformance check: its stable ID ("card.schema",
// "card.interfaces", "binding.<tag>.reachable",
// "capability.streaming.<tag>", "capability.pushNotifications.<tag>",
// "capability.extendedAgentCard.<tag>", where <tag> is the interface's
// binding, JSONRPC or HTTP+JSON, with "@<version>" when the card lists
// the binding twice and "#<n>" when still ambiguous), a one-line title,
// whether it passed, and what was seen (one line, inert: control
// characters escaped, cut to 400 bytes before escaping). Skipped marks a check not
// made (not declared, not spoken, unreachable, needs credentials); a
// skipped check has Pass true, so it never fails the run. Under -o json
// its members are id, title, pass, detail, skipped.
type checkResult struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Pass    bool   `json:"pass"`
	Detail  string `json:"detail"`
	Skipped bool   `json:"skipped"`
}

// conformanceProbeTimeout bounds each probe (one call) inside the
// caller's ctx, so a stream that opens and says nothing fails its check
// instead of using up the command's --timeout.
var conformanceProbeTimeout = 30 * time.Second

// conformance runs side-effect-free checks of a live agent: the card
// validates (validateCard); every interface the CLI speaks answers
// GetTask of a random unknown id with TaskNotFound in its binding's shape
// (reachability + error mapping); streaming declared → SubscribeToTask of
// an unknown id answers TaskNotFound (not method-not-found /
// unsupported); not declared → it is refused (UnsupportedOperation) or
// skip; pushNotifications declared → ListTaskPushNotificationConfigs of
// an unknown id → TaskNotFound, not declared →
// PushNotificationNotSupported; extended card declared →
// GetExtendedAgentCard answers (or needs auth: report as such). newClient
// makes a client for one interface (the core passes a function that
// applies the user's credentials and flags). The results are in order:
// card checks, then per interface in card order its reachability and
// capability checks. An undeclared capability the agent serves anyway
// passes, its Detail saying so. Interfaces in a binding or version the
// CLI does not speak get a skipped check each.
func conformance(ctx context.Context, card *a2a.AgentCard, newClient func(a2a.AgentInterface) (*a2a.Client, error)) []checkResult {
	var out []checkResult
	if card == nil {
		return []checkResult{{ID: "card.schema", Title: "the card validates", Detail: "no card"}}
	}
	raw := card.Raw()
	if len(raw) == 0 {
		raw, _ = json.Marshal(card)
	}
	version, problems := validateCard(raw)
	schema := checkResult{ID: "card.schema", Title: "the card validates against the A2A v" + version + " schema", Pass: len(problems) == 0, Detail: "no problems"}
	if len(problems) > 0 {
		var shown []string
		for _, p := range problems[:min(3, len(problems))] {
			shown = append(shown, p.Pointer+": "+p.Problem)
		}
		schema.Detail = fmt.Sprintf("%d problems (card get --validate lists them): %s", len(problems), strings.Join(shown, "; "))
	}
	out = append(out, schema)

	ifaces := card.Interfaces()
	var spoken []a2a.AgentInterface
	for _, in := range ifaces {
		if speaks(in) {
			spoken = append(spoken, in)
		}
	}
	listed := checkResult{ID: "card.interfaces", Title: "the card lists an interface the CLI speaks (JSON-RPC or HTTP+JSON, A2A v0.3 or v1.0)",
		Pass: len(spoken) > 0, Detail: fmt.Sprintf("%d of %d interfaces", len(spoken), len(ifaces))}
	out = append(out, listed)

	tags := interfaceTags(ifaces)
	for i, in := range ifaces {
		tag := tags[i]
		where := fmt.Sprintf("%s v%s at %s", in.ProtocolBinding, in.ProtocolVersion, in.URL)
		if !speaks(in) {
			out = append(out, checkResult{ID: "binding." + tag + ".reachable", Title: where + " answers", Pass: true, Skipped: true,
				Detail: "skipped: the CLI does not speak this binding or version"})
			continue
		}
		out = append(out, probeInterface(ctx, card, in, tag, where, newClient)...)
	}
	for i := range out {
		out[i].Title = inert.Printable(out[i].Title)
		out[i].Detail = inert.Printable(inert.Truncate(out[i].Detail, 400))
	}
	return out
}

// speaks reports whether the CLI speaks in: JSON-RPC or HTTP+JSON, in A2A
// 0.x or 1.x.
func speaks(in a2a.AgentInterface) bool {
	b := canonicalBinding(in.ProtocolBinding)
	v := in.ProtocolVersion
	return (b == a2a.TransportJSONRPC || b == a2a.TransportHTTPJSON) && (strings.HasPrefix(v, "0.") || strings.HasPrefix(v, "1.") || v == "0" || v == "1")
}

func canonicalBinding(b string) string {
	switch strings.ToUpper(b) {
	case "JSONRPC":
		return a2a.TransportJSONRPC
	case "HTTP+JSON", "REST":
		return a2a.TransportHTTPJSON
	case "GRPC":
		return a2a.TransportGRPC
	}
	return b
}

// interfaceTags names each interface for check IDs: its binding; with
// "@version" when another has the same binding; with "#n" (its 1-based
// place) when that still repeats.
func interfaceTags(ifaces []a2a.AgentInterface) []string {
	count := func(key func(a2a.AgentInterface) string, k string) int {
		n := 0
		for _, in := range ifaces {
			if key(in) == k {
				n++
			}
		}
		return n
	}
	binding := func(in a2a.AgentInterface) string { return canonicalBinding(in.ProtocolBinding) }
	both := func(in a2a.AgentInterface) string { return binding(in) + "@" + in.ProtocolVersion }
	tags := make([]string, len(ifaces))
	for i, in := range ifaces {
		switch {
		case count(binding, binding(in)) == 1:
			tags[i] = binding(in)
		case count(both, both(in)) == 1:
			tags[i] = both(in)
		default:
			tags[i] = fmt.Sprintf("%s#%d", both(in), i+1)
		}
	}
	return tags
}

// probeInterface checks one interface the CLI speaks: reachable with
// the right error, then each capability.
func probeInterface(ctx context.Context, card *a2a.AgentCard, in a2a.AgentInterface, tag, where string, newClient func(a2a.AgentInterface) (*a2a.Client, error)) []checkResult {
	reach := checkResult{ID: "binding." + tag + ".reachable", Title: where + " answers GetTask of an unknown id with TaskNotFound"}
	caps := []checkResult{
		{ID: "capability.streaming." + tag, Title: "streaming as declared (" + declared(card.Capabilities.Streaming) + ")"},
		{ID: "capability.pushNotifications." + tag, Title: "push notifications as declared (" + declared(card.Capabilities.PushNotifications) + ")"},
		{ID: "capability.extendedAgentCard." + tag, Title: "extended card as declared (" + declared(extendedDeclared(card)) + ")"},
	}
	c, err := newClient(in)
	if err == nil && c == nil {
		err = errors.New("no client for this interface")
	}
	if err == nil {
		pctx, cancel := context.WithTimeout(ctx, conformanceProbeTimeout)
		_, err = c.GetTask(pctx, unknownTaskID())
		cancel()
		switch {
		case err == nil:
			err = errors.New("it returned a task for an id that cannot exist")
		case errors.Is(err, a2a.ErrTaskNotFound):
			reach.Pass, reach.Detail = true, "TaskNotFoundError"+shape(err)
		}
	}
	if !reach.Pass {
		reach.Detail = describe(err)
		for i := range caps {
			caps[i].Pass, caps[i].Skipped, caps[i].Detail = true, true, "skipped: the interface does not answer"
		}
		return append([]checkResult{reach}, caps...)
	}
	caps[0] = probeStreaming(ctx, c, card.Capabilities.Streaming, caps[0])
	caps[1] = probePush(ctx, c, card.Capabilities.PushNotifications, caps[1])
	caps[2] = probeExtended(ctx, c, extendedDeclared(card), caps[2])
	return append([]checkResult{reach}, caps...)
}

func declared(b bool) string {
	if b {
		return "declared"
	}
	return "not declared"
}

func extendedDeclared(card *a2a.AgentCard) bool {
	return card.Capabilities.ExtendedAgentCard || card.SupportsAuthenticatedExtendedCard
}

// unknownTaskID is a task id no agent has: random, and saying what it is
// in the agent's logs.
func unknownTaskID() string {
	var b [12]byte
	rand.Read(b[:])
	return "a2a-conformance-" + hex.EncodeToString(b[:])
}

// probeStreaming subscribes to an unknown task and reads the first answer.
func probeStreaming(ctx context.Context, c *a2a.Client, isDeclared bool, r checkResult) checkResult {
	pctx, cancel := context.WithTimeout(ctx, conformanceProbeTimeout)
	defer cancel()
	err := errors.New("the stream ended without an answer")
	for ev, e := range c.SubscribeToTask(pctx, unknownTaskID()) {
		err = e
		if e == nil {
			err = fmt.Errorf("it sent an event (%T) for an id that cannot exist", ev)
		}
		break
	}
	return judge(r, isDeclared, err, "streaming", a2a.ErrUnsupportedOperation, a2a.ErrMethodNotFound)
}

// probePush lists the push configs of an unknown task.
func probePush(ctx context.Context, c *a2a.Client, isDeclared bool, r checkResult) checkResult {
	pctx, cancel := context.WithTimeout(ctx, conformanceProbeTimeout)
	defer cancel()
	_, err := c.ListTaskPushNotificationConfigs(pctx, unknownTaskID())
	if err == nil {
		err = errors.New("it listed push configs of an id that cannot exist")
	}
	return judge(r, isDeclared, err, "push notifications", a2a.ErrPushNotificationNotSupported)
}

// judge rates a probe of an unknown id: a declared capability must
// answer TaskNotFound; an undeclared one must be refused with one of
// refusals (or the client's own refusal: the card rules it out), or, when
// served anyway, passes with a note.
func judge(r checkResult, isDeclared bool, err error, what string, refusals ...error) checkResult {
	var byCard *a2a.UnsupportedByCardError
	refused := errors.As(err, &byCard)
	for _, s := range refusals {
		refused = refused || errors.Is(err, s)
	}
	switch {
	case errors.Is(err, a2a.ErrTaskNotFound) && isDeclared:
		r.Pass, r.Detail = true, "TaskNotFoundError"+shape(err)
	case errors.Is(err, a2a.ErrTaskNotFound):
		r.Pass, r.Detail = true, "the agent serves "+what+" though its card does not declare it (TaskNotFoundError)"
	case refused && byCard != nil && !isDeclared:
		r.Pass, r.Skipped, r.Detail = true, true, "skipped: not declared, so the client does not ask"
	case refused && !isDeclared:
		r.Pass, r.Detail = true, "refused as the card says: "+describe(err)
	case refused:
		r.Detail = "the card declares " + what + " but the agent refuses it: " + describe(err)
	case !isDeclared:
		r.Detail = "not declared, and not refused with " + errName(refusals[0]) + ": " + describe(err)
	default:
		r.Detail = "want TaskNotFoundError: " + describe(err)
	}
	return r
}

// probeExtended fetches the extended card when the card declares one and
// validates it.
func probeExtended(ctx context.Context, c *a2a.Client, isDeclared bool, r checkResult) checkResult {
	if !isDeclared {
		r.Pass, r.Skipped, r.Detail = true, true, "skipped: not declared"
		return r
	}
	pctx, cancel := context.WithTimeout(ctx, conformanceProbeTimeout)
	defer cancel()
	ext, err := c.GetExtendedAgentCard(pctx)
	var he *a2a.HTTPError
	switch {
	case errors.As(err, &he) && (he.StatusCode == http.StatusUnauthorized || he.StatusCode == http.StatusForbidden):
		r.Pass, r.Skipped = true, true
		r.Detail = fmt.Sprintf("skipped: the extended card needs credentials (HTTP %d); give --bearer or --api-key to check it", he.StatusCode)
	case err != nil:
		r.Detail = "the card declares an extended card but GetExtendedAgentCard failed: " + describe(err)
	default:
		raw := ext.Raw()
		if len(raw) == 0 {
			raw, _ = json.Marshal(ext)
		}
		if _, problems := validateCard(raw); len(problems) > 0 {
			r.Detail = fmt.Sprintf("the extended card has %d schema problems, the first %s: %s", len(problems), problems[0].Pointer, problems[0].Problem)
		} else {
			r.Pass, r.Detail = true, "the extended card answers and validates"
		}
	}
	return r
}

// shape says how an A2A error came: its HTTP status and google.rpc.Status
// or reason over HTTP+JSON, its code over JSON-RPC.
func shape(err error) string {
	var re *a2a.RPCError
	if !errors.As(err, &re) {
		return ""
	}
	if re.Status != "" || re.StatusCode >= 300 {
		s := fmt.Sprintf(" (HTTP %d", re.StatusCode)
		if re.Status != "" {
			s += " " + re.Status
		}
		if r := re.Reason(); r != "" {
			s += ", reason " + r
		}
		return s + ")"
	}
	return fmt.Sprintf(" (JSON-RPC %d)", re.Code)
}

// errName is the A2A name of a sentinel error.
func errName(err error) string {
	for _, n := range []struct {
		err  error
		name string
	}{
		{a2a.ErrTaskNotFound, "TaskNotFoundError"},
		{a2a.ErrPushNotificationNotSupported, "PushNotificationNotSupportedError"},
		{a2a.ErrUnsupportedOperation, "UnsupportedOperationError"},
		{a2a.ErrMethodNotFound, "MethodNotFoundError"},
		{a2a.ErrExtendedAgentCardNotConfigured, "ExtendedAgentCardNotConfiguredError"},
		{a2a.ErrVersionNotSupported, "VersionNotSupportedError"},
	} {
		if errors.Is(err, n.err) {
			return n.name
		}
	}
	return ""
}

// describe is err as a detail: its A2A name when it has one, then its
// text (the SDK's errors carry no credential).
func describe(err error) string {
	if err == nil {
		return "no error"
	}
	if n := errName(err); n != "" {
		return n + shape(err) + ": " + err.Error()
	}
	return err.Error()
}
