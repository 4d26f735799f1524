package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The classification of what an agent (or its card's URL) answered: its
// A2A errors by name whatever the binding, its HTTP failures, its replies
// that break the protocol, its card.

// classifyCard classifies a *CardError by the attempt that ended the
// search: no reply (UNREACHABLE), a 401/403/407 (credentials), a reply
// that is no card (CARD_INVALID), any other status (CARD_NOT_FOUND, the
// status in A2ACode).
func classifyCard(e *a2a.CardError, credentialsGiven bool) cliError {
	msg := boundedMessage(strings.TrimPrefix(e.Error(), "a2a: "))
	notFound := cliError{Code: cliErrCardNotFound, Message: msg,
		Hint: "give the card's URL (…/agent-card.json) or a card file with -a, or call an endpoint directly with --endpoint URL", Exit: errExitUnreachable}
	if len(e.Attempts) == 0 {
		return notFound
	}
	last := e.Attempts[len(e.Attempts)-1]
	var (
		httpErr  *a2a.HTTPError
		protoErr *a2a.ProtocolError
		tooLarge *a2a.BodyTooLargeError
	)
	switch {
	case last.Err != nil && errors.As(last.Err, &httpErr):
		// Credentials refused, or a gateway with no agent behind it.
		if c := classifyHTTP(httpErr, msg, credentialsGiven); c.Exit == errExitAuth || c.Code == cliErrUnreachable {
			return c
		}
	case last.Err != nil && (errors.As(last.Err, &protoErr) || errors.As(last.Err, &tooLarge)):
		return cliError{Code: cliErrCardInvalid, Message: msg, Hint: "--debug shows what was read", A2ACode: httpA2ACode(non2xx(last.StatusCode)), Exit: errExitFailure}
	case last.Err != nil && last.StatusCode == 0:
		// No reply: the connection, TLS, the credential source, the
		// deadline.
		if c := classify(last.Err, credentialsGiven); c.Code != cliErrInternal {
			c.Message = msg
			return c
		}
	}
	notFound.A2ACode = httpA2ACode(last.StatusCode)
	return notFound
}

// classifyCapability classifies a call the agent's card says it cannot
// take, refused before anything was sent: A2A names each such refusal.
func classifyCapability(e *a2a.UnsupportedByCardError) cliError {
	c := cliError{Code: "UnsupportedOperationError", Message: boundedMessage(strings.TrimPrefix(e.Error(), "a2a: ")), Exit: errExitFailure}
	switch {
	case strings.Contains(e.Capability, "pushNotifications"):
		c.Code, c.Hint = "PushNotificationNotSupportedError", "drop --push-receiver: the agent takes no push configs (send polls instead)"
	case strings.Contains(e.Capability, "streaming"):
		c.Hint = "drop --stream: the agent does not stream (send polls instead)"
	case strings.Contains(strings.ToLower(e.Capability), "extended"):
		c.Hint = "drop --extended: the agent offers no extended card"
	default:
		c.Hint = "a2a card get shows the agent's capabilities"
	}
	return c
}

// a2aErrorNames are A2A's names of the JSON-RPC error codes: the standard
// JSON-RPC errors as A2A names them (A2A v0.3 §8.1, its schema's types)
// and A2A's own (A2A v1.0 §3.3.2, mapped across bindings per §5.4; -32007
// is v0.3's AuthenticatedExtendedCardNotConfiguredError under its v1.0
// name).
var a2aErrorNames = map[int]string{
	-32700: "JSONParseError",
	-32600: "InvalidRequestError",
	-32601: "MethodNotFoundError",
	-32602: "InvalidParamsError",
	-32603: "InternalError",
	-32001: "TaskNotFoundError",
	-32002: "TaskNotCancelableError",
	-32003: "PushNotificationNotSupportedError",
	-32004: "UnsupportedOperationError",
	-32005: "ContentTypeNotSupportedError",
	-32006: "InvalidAgentResponseError",
	-32007: "ExtendedAgentCardNotConfiguredError",
	-32008: "ExtensionSupportRequiredError",
	-32009: "VersionNotSupportedError",
}

// a2aReasonCodes maps an ErrorInfo reason (A2A v1.0 §5.4: the error's
// name in UPPER_SNAKE_CASE without "Error") to its JSON-RPC code, for a
// JSON-RPC error whose code A2A does not name but whose reason does.
var a2aReasonCodes = map[string]int{
	"PARSE_ERROR": -32700, "INVALID_REQUEST": -32600, "METHOD_NOT_FOUND": -32601, "INVALID_PARAMS": -32602,
	"INTERNAL_ERROR": -32603, "TASK_NOT_FOUND": -32001, "TASK_NOT_CANCELABLE": -32002,
	"PUSH_NOTIFICATION_NOT_SUPPORTED": -32003, "UNSUPPORTED_OPERATION": -32004, "CONTENT_TYPE_NOT_SUPPORTED": -32005,
	"INVALID_AGENT_RESPONSE": -32006, "EXTENDED_AGENT_CARD_NOT_CONFIGURED": -32007,
	"AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED": -32007, "EXTENSION_SUPPORT_REQUIRED": -32008,
	"VERSION_NOT_SUPPORTED": -32009,
}

// a2aErrorHints are the hints of the errors A2A names, where there is one
// to give whatever the call.
var a2aErrorHints = map[int]string{
	-32700: "--debug shows the request sent and the agent's error",
	-32600: "--debug shows the request sent and the agent's error",
	-32602: "--debug shows the request sent and the agent's error",
	-32603: "--debug shows the agent's error",
	-32001: "check the task id; --debug shows the agent's error",
	-32002: "the task has ended or cannot be canceled now: a2a task get TASKID shows its state",
	-32003: "drop --push-receiver and the push-config commands: the agent takes no push configs",
	-32004: "--debug shows the agent's error; a2a card get shows what the agent supports",
	-32005: "set each part's type with --media-type (a2a card get shows the types the agent takes)",
	-32006: "--debug shows the agent's reply",
	-32007: "drop --extended: the agent serves no extended card",
}

// classifyRPC classifies an A2A error the agent sent (a JSON-RPC error, or
// an HTTP+JSON one the SDK read into an *RPCError with the JSON-RPC code
// of the error it names): by its code, else its ErrorInfo reason.
func classifyRPC(e *a2a.RPCError, credentialsGiven bool) cliError {
	code := e.Code
	if _, known := a2aErrorNames[code]; !known {
		if c, ok := a2aReasonCodes[e.Reason()]; ok {
			code = c
		}
	}
	msg := e.Message
	if msg == "" {
		msg = strings.TrimPrefix(strings.TrimSuffix(e.Error(), "; "+e.Hint), "a2a: ")
	}
	c := cliError{Code: a2aErrorNames[code], Message: boundedMessage(msg), Hint: a2aErrorHints[code], A2ACode: rpcTransportCode(e), Exit: errExitFailure}
	switch {
	case c.Code == "":
		// A code A2A does not name: a2a-go's own for credentials, else
		// no name to give (the spec forbids inventing one).
		switch reason := e.Reason(); {
		case e.Code == -31401 || reason == "UNAUTHENTICATED":
			return authFailure(http.StatusUnauthorized, "", c.Message, c.A2ACode, credentialsGiven)
		case e.Code == -31403 || reason == "UNAUTHORIZED" || reason == "PERMISSION_DENIED":
			return authFailure(http.StatusForbidden, "", c.Message, c.A2ACode, credentialsGiven)
		}
		c.Code, c.Hint = cliErrInternal, "--debug shows the agent's error"
	case code == -32008:
		c.Hint = extensionHint(e.RequiredExtensions)
	case code == -32009:
		// The SDK hints at the other version on every binding but v1.0
		// over HTTP+JSON: a refusal with no hint is of v1.0.
		c.Hint = versionHint(e.Hint, "--a2a-version 0.3")
	case code == -32601 && e.Hint != "":
		c.Hint = "if the agent speaks another A2A version: " + versionHint(e.Hint, "--a2a-version 0.3 or 1.0")
	case code == -32601:
		c.Hint = "--debug shows the method called; a2a card get shows the agent's interfaces"
	}
	return c
}

// rpcTransportCode is an *RPCError's A2ACode: the JSON-RPC code of a
// JSON-RPC error (nil for none); for an HTTP+JSON error (one with a
// Status: a google.rpc.Status or an RFC 9457 problem), its HTTP status,
// or, for an error event inside a 200 stream, the status its body names.
func rpcTransportCode(e *a2a.RPCError) any {
	if e.Status == "" {
		if e.Code != 0 {
			return e.Code
		}
		return httpA2ACode(non2xx(e.StatusCode))
	}
	if s := non2xx(e.StatusCode); s != 0 {
		return s
	}
	var body struct {
		Code   json.RawMessage `json:"code"`   // google.rpc.Status
		Status json.RawMessage `json:"status"` // RFC 9457
	}
	if len(e.Data) > 0 && len(e.Data) <= maxDetailsJSON && json.Unmarshal(e.Data, &body) == nil {
		for _, raw := range []json.RawMessage{body.Code, body.Status} {
			if n, err := strconv.Atoi(string(raw)); err == nil && n >= 100 && n <= 599 {
				return n
			}
		}
	}
	return nil
}

// maxDetailsJSON bounds the error data rpcTransportCode decodes.
const maxDetailsJSON = 64 << 10

// extensionHint names the --extension flags that activate the extensions
// an agent requires (at most maxHintExtensions, shell-quoted).
func extensionHint(uris []string) string {
	if len(uris) == 0 {
		return "a2a card get lists the extensions the card marks required: add --extension URI for each"
	}
	var b strings.Builder
	b.WriteString("add")
	for i, u := range uris {
		if i == maxHintExtensions {
			b.WriteString(" …")
			break
		}
		b.WriteString(" --extension " + quote(u))
	}
	return b.String()
}

// versionHint names the --a2a-version to try, the one the agent does not
// refuse, from the SDK's text about the version it speaks (an
// *RPCError's Hint, a *ProtocolError's reason); fallback when that text
// names none.
func versionHint(sdkText, fallback string) string {
	switch {
	case strings.Contains(sdkText, "ProtocolV03") || strings.Contains(sdkText, "refuses A2A v1.0") ||
		strings.Contains(sdkText, "A2A v0.3 JSON-RPC's shape"):
		return "--a2a-version 0.3"
	case strings.Contains(sdkText, "ProtocolV10") || strings.Contains(sdkText, "refuses A2A v0.3") ||
		strings.Contains(sdkText, "an A2A v1.0 shape") || strings.Contains(sdkText, "an A2A v1.0 part"):
		return "--a2a-version 1.0"
	}
	return fallback
}

// classifyHTTP classifies an HTTP reply that is no A2A error (after
// retries): 401/403/407 are credential failures, 500 A2A's InternalError,
// 502/503/504 a gateway that could not reach the agent (UNREACHABLE),
// anything else A2ACLI_ERR_INTERNAL; A2ACode is the status.
func classifyHTTP(e *a2a.HTTPError, msg string, credentialsGiven bool) cliError {
	if c := httpAuth(e, msg, credentialsGiven); c.Code != "" {
		return c
	}
	c := cliError{Code: cliErrInternal, Message: msg, A2ACode: e.StatusCode, Exit: errExitFailure}
	later := "try again later"
	if e.RetryAfter > 0 {
		later = "try again after " + e.RetryAfter.String()
	}
	switch e.StatusCode {
	case http.StatusInternalServerError:
		c.Code, c.Hint = "InternalError", "--debug shows the agent's reply"
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		c.Code, c.Exit, c.Hint = cliErrUnreachable, errExitUnreachable, "the agent is unavailable behind its gateway: "+later
	case http.StatusTooManyRequests:
		c.Hint = "the agent limits its rate: " + later
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		c.Hint = "check the endpoint URL: no A2A agent answered there (a2a card get lists the card's interfaces)"
	default:
		c.Hint = "--debug shows the agent's reply"
	}
	return c
}

// httpAuth is the cliError of an HTTP 401, 403 or 407, or the zero
// cliError for any other status.
func httpAuth(e *a2a.HTTPError, msg string, credentialsGiven bool) cliError {
	switch e.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		return authFailure(e.StatusCode, e.Challenge, msg, e.StatusCode, credentialsGiven)
	case http.StatusProxyAuthRequired:
		return cliError{Code: cliErrCredentialsMissing, Message: msg, A2ACode: e.StatusCode, Exit: errExitAuth,
			Hint: "the proxy asks for credentials: put them in HTTPS_PROXY (http://USER:PASSWORD@HOST:PORT)"}
	}
	return cliError{}
}

// authFailure is the cliError of a refusal for want of credentials
// (status 401 or 403, challenge the WWW-Authenticate header if any): with
// none given CREDENTIALS_MISSING, with one AUTH_FAILED.
func authFailure(status int, challenge, msg string, a2aCode any, credentialsGiven bool) cliError {
	c := cliError{Code: cliErrAuthFailed, Message: msg, A2ACode: a2aCode, Exit: errExitAuth}
	switch {
	case credentialsGiven && status == http.StatusForbidden:
		c.Hint = "the credential is not allowed this call: use one with the access it needs"
	case credentialsGiven:
		c.Hint = "the credential was refused: check --bearer or --api-key, or a2a auth login for a new token"
	default:
		c.Code = cliErrCredentialsMissing
		scheme, _, _ := strings.Cut(strings.TrimSpace(challenge), " ")
		switch strings.ToLower(scheme) {
		case "bearer", "dpop":
			c.Hint = "--bearer TOKEN (or A2ACLI_BEARER), or a2a auth login"
		default:
			c.Hint = "--bearer TOKEN or --api-key KEY (a2a card get shows the scheme the agent declares), or a2a auth login"
		}
	}
	return c
}

// classifyProtocol classifies a reply that breaks the protocol's rules:
// one in the other A2A version's shapes is VersionNotSupportedError, one
// in the other binding's InvalidAgentResponseError with the --transport
// to use, any other InvalidAgentResponseError; A2ACode is its HTTP status
// when not 2xx.
func classifyProtocol(e *a2a.ProtocolError, err error) cliError {
	c := cliError{Code: "InvalidAgentResponseError", Message: errorMessage(err), Hint: "--debug shows the agent's reply",
		A2ACode: httpA2ACode(non2xx(e.StatusCode)), Exit: errExitFailure}
	switch {
	case errors.Is(err, a2a.ErrVersionMismatch):
		c.Code, c.Hint = "VersionNotSupportedError", versionHint(err.Error(), "--a2a-version 1.0 or --a2a-version 0.3")
	case errors.Is(err, a2a.ErrTransportMismatch) && strings.Contains(e.Reason, "speaks JSON-RPC"):
		c.Hint = "--transport JSONRPC (or a2a card get for the agent's interfaces)"
	case errors.Is(err, a2a.ErrTransportMismatch):
		c.Hint = "--transport HTTP+JSON (or a2a card get for the agent's interfaces)"
	}
	return c
}
