package a2aotel

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"

	a2a "github.com/caoliao-a2a/a2a-go"
	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
)

// The attribute names of a2a-java's OpenTelemetry module
// (A2AObservabilityNames), and this module's own in the same namespace.
const (
	attrOperation       = attribute.Key("gen_ai.agent.a2a.operation.name")
	attrProtocol        = attribute.Key("gen_ai.agent.a2a.protocol")
	attrTaskID          = attribute.Key("gen_ai.agent.a2a.task_id")
	attrContextID       = attribute.Key("gen_ai.agent.a2a.context_id")
	attrMessageID       = attribute.Key("gen_ai.agent.a2a.message_id")
	attrStatus          = attribute.Key("gen_ai.agent.a2a.status")
	attrProtocolVersion = attribute.Key("gen_ai.agent.a2a.protocol_version") // this module's
	attrTenant          = attribute.Key("gen_ai.agent.a2a.tenant")           // this module's
	attrEventKind       = attribute.Key("gen_ai.agent.a2a.event.kind")       // this module's
	attrFinal           = attribute.Key("gen_ai.agent.a2a.event.final")      // this module's
	attrArtifactID      = attribute.Key("gen_ai.agent.a2a.artifact_id")      // this module's
)

const schemaURL = semconv.SchemaURL

// rpcSystemJSONRPC is rpc.system for a JSON-RPC call (semantic
// conventions 1.37 name no constant for it).
var rpcSystemJSONRPC = semconv.RPCSystemKey.String("jsonrpc")

// startAttributes are a span's attributes known when op starts.
func startAttributes(op a2a.Operation) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 16)
	attrs = append(attrs, attrOperation.String(op.Name))
	if op.Transport != "" {
		attrs = append(attrs, attrProtocol.String(op.Transport))
	}
	if op.ProtocolVersion != "" {
		attrs = append(attrs, attrProtocolVersion.String(op.ProtocolVersion))
	}
	attrs = appendIDs(attrs, op.Shown, op.TaskID, op.ContextID)
	if op.MessageID != "" {
		attrs = append(attrs, attrMessageID.String(op.Shown(op.MessageID)))
	}
	if op.Tenant != "" {
		attrs = append(attrs, attrTenant.String(op.Shown(op.Tenant)))
	}
	if op.Name == "SendMessage" || op.Name == "SendStreamingMessage" {
		attrs = append(attrs, semconv.GenAIOperationNameInvokeAgent)
	}
	if op.Agent != "" {
		attrs = append(attrs, semconv.GenAIAgentName(op.Agent))
	}
	if op.Transport == a2a.TransportJSONRPC {
		attrs = append(attrs, rpcSystemJSONRPC, semconv.RPCMethod(op.Method))
	}
	if u, err := url.Parse(op.Endpoint); err == nil && u.Host != "" {
		attrs = append(attrs, semconv.URLFull(op.Endpoint), semconv.ServerAddress(u.Hostname()))
		if port := portOf(u); port > 0 {
			attrs = append(attrs, semconv.ServerPort(port))
		}
	}
	return attrs
}

// appendIDs appends the task and context ids that are not empty, as
// shown shows them ([a2a.Operation.Shown]: redacted, inert, bounded), the
// context id as the GenAI conversation id too.
func appendIDs(attrs []attribute.KeyValue, shown func(string) string, taskID, contextID string) []attribute.KeyValue {
	if taskID != "" {
		attrs = append(attrs, attrTaskID.String(shown(taskID)))
	}
	if contextID != "" {
		contextID = shown(contextID)
		attrs = append(attrs, attrContextID.String(contextID), semconv.GenAIConversationID(contextID))
	}
	return attrs
}

// portOf is u's port, or its scheme's.
func portOf(u *url.URL) int {
	if p := u.Port(); p != "" {
		n, _ := strconv.Atoi(p)
		return n
	}
	switch u.Scheme {
	case "https":
		return 443
	case "http":
		return 80
	}
	_, p, _ := net.SplitHostPort(u.Host)
	n, _ := strconv.Atoi(p)
	return n
}

// resultAttributes are what a result tells of its task: ids and state,
// every string the agent chose as shown shows it ([a2a.Operation.Shown]).
// No content.
func resultAttributes(res any, shown func(string) string) []attribute.KeyValue {
	var attrs []attribute.KeyValue
	switch r := res.(type) {
	case *a2a.Task:
		attrs = appendIDs(attrs, shown, r.ID, r.ContextID)
		attrs = append(attrs, attrStatus.String(shown(string(r.Status.State))))
	case *a2a.Message:
		attrs = appendIDs(attrs, shown, r.TaskID, r.ContextID)
	case *a2a.TaskStatusUpdateEvent:
		attrs = appendIDs(attrs, shown, r.TaskID, r.ContextID)
		attrs = append(attrs, attrStatus.String(shown(string(r.Status.State))))
	case *a2a.TaskArtifactUpdateEvent:
		attrs = appendIDs(attrs, shown, r.TaskID, r.ContextID)
	}
	return attrs
}

// eventAttributes are a stream event's span event attributes: its kind,
// its task, its state and finality, an artifact's id. No content.
func eventAttributes(ev a2a.Event, shown func(string) string) []attribute.KeyValue {
	attrs := resultAttributes(ev, shown)
	switch e := ev.(type) {
	case *a2a.Task:
		attrs = append(attrs, attrEventKind.String("task"))
	case *a2a.Message:
		attrs = append(attrs, attrEventKind.String("message"), attrMessageID.String(shown(e.MessageID)))
	case *a2a.TaskStatusUpdateEvent:
		attrs = append(attrs, attrEventKind.String("status-update"), attrFinal.Bool(e.Final))
	case *a2a.TaskArtifactUpdateEvent:
		attrs = append(attrs, attrEventKind.String("artifact-update"), attrArtifactID.String(shown(e.Artifact.ArtifactID)))
	}
	return attrs
}

// errorType is error.type for err: the HTTP status of an *a2a.HTTPError,
// the code of an *a2a.RPCError (found inside a *a2a.StreamCutError
// too), "timeout" for a deadline, else the Go type of the error the
// a2a package returned ("_OTHER" for one of no named type).
func errorType(err error) string {
	var (
		re  *a2a.RPCError
		he  *a2a.HTTPError
		cut *a2a.StreamCutError
	)
	switch {
	case errors.As(err, &re):
		return strconv.Itoa(re.Code)
	case errors.As(err, &he):
		return strconv.Itoa(he.StatusCode)
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.As(err, &cut):
		return fmt.Sprintf("%T", cut)
	}
	if t := fmt.Sprintf("%T", err); len(t) > 5 && t[:5] == "*a2a." {
		return t
	}
	return semconv.ErrorTypeOther.Value.AsString()
}
