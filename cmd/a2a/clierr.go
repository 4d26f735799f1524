package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// A failure as the CLI reports it (A2A CLI spec v0.2 §11.4, §11.6,
// Appendix B, Appendix D): one classification of every error a command
// can meet into a code, a message, a hint in flags, the transport's own
// code and the exit status, the same for the same A2A error on every
// binding (JSON-RPC and HTTP+JSON, A2A v0.3 and v1.0).

// The CLI-local codes of the spec's Appendix D. Each is a failure the
// protocol has no name for; a failure A2A names carries A2A's name.
const (
	cliErrUsage              = "A2ACLI_ERR_USAGE"               // bad arguments, flags or combination: exit 2
	cliErrCardNotFound       = "A2ACLI_ERR_CARD_NOT_FOUND"      // the --agent-card reference resolves to no card: exit 3
	cliErrCardInvalid        = "A2ACLI_ERR_CARD_INVALID"        // a card was read but is malformed, or refused by its signatures: exit 1
	cliErrUnreachable        = "A2ACLI_ERR_UNREACHABLE"         // no reply: DNS, connection, TLS; a gateway's 502/503/504: exit 3
	cliErrCredentialsMissing = "A2ACLI_ERR_CREDENTIALS_MISSING" // the agent wants a credential and none was given: exit 4
	cliErrAuthFailed         = "A2ACLI_ERR_AUTH_FAILED"         // a credential was given and refused: exit 4
	cliErrTimeout            = "A2ACLI_ERR_TIMEOUT"             // --timeout (or the wait's budget) ran out: exit 5
	cliErrInternal           = "A2ACLI_ERR_INTERNAL"            // anything with no better code: exit 1
)

// The exit statuses a cliError carries (contract "Exit codes").
const (
	errExitFailure     = 1   // the command failed; nothing more specific applies
	errExitUsage       = 2   // usage: nothing was sent
	errExitUnreachable = 3   // agent or card unreachable or unresolvable
	errExitAuth        = 4   // credentials missing or refused
	errExitTimeout     = 5   // --timeout expired
	errExitInterrupted = 130 // stopped by Ctrl-C (the caller makes it 128+n for signal n)
)

// maxErrorMessage bounds a cliError's Message in bytes (an agent chooses
// the text of its errors, and of its length).
const maxErrorMessage = 1024

// maxHintExtensions bounds the --extension flags a hint names.
const maxHintExtensions = 8

// cliError is a failure as the CLI reports it. It is an error itself: a
// piece of the CLI that knows its failure's classification returns one,
// and classify hands it back as it is.
type cliError struct {
	// Code is the A2A error name ("TaskNotFoundError") for a failure the
	// protocol names, whatever the binding; else an A2ACLI_ERR_* code.
	Code string
	// Message is human-readable, at most maxErrorMessage bytes (and "…");
	// it may hold the agent's text and the user's secrets: redaction and
	// inertness are the printer's job.
	Message string
	// Hint is an actionable next step in flags or a command to paste, or
	// "" when there is nothing useful to say (and for A2ACLI_ERR_TIMEOUT,
	// whose hint names the --timeout value the caller alone knows). It
	// may name URIs the agent chose (shell-quoted).
	Hint string
	// A2ACode is the transport's own code for the failure: the JSON-RPC
	// error code (int) of a JSON-RPC error, the HTTP status (int) of an
	// HTTP+JSON error or of an HTTP failure, or nil when there is none
	// (nothing sent, no reply, a reply that is no error).
	A2ACode any
	// Exit is the process exit status: 2 usage, 3 unreachable or no card,
	// 4 credentials, 5 timeout, 130 interrupted, else 1.
	Exit int
}

// Error returns "Code: Message".
func (e cliError) Error() string { return e.Code + ": " + e.Message }

// classify maps any error a command can meet to its cliError. A2A's own
// errors (JSON-RPC codes, HTTP+JSON reasons and statuses, the SDK's
// sentinels and capability refusals) carry A2A's name, the same on every
// binding; the rest an Appendix D code. credentialsGiven says whether the
// user gave a credential (--bearer, --api-key, a stored login): a 401 or
// 403 is then A2ACLI_ERR_AUTH_FAILED, else A2ACLI_ERR_CREDENTIALS_MISSING.
// A usageError is A2ACLI_ERR_USAGE; a cliError (or one wrapped) is
// returned as it is. classify(nil) is the zero cliError (Exit 0).
//
// Choices the spec leaves open: a JSON-RPC error whose code A2A does not
// name (and whose ErrorInfo reason names none) is A2ACLI_ERR_INTERNAL
// with the code in A2ACode, as inventing a name is forbidden (S§11.4),
// except a2a-go's -31401/-31403 (UNAUTHENTICATED, UNAUTHORIZED), which
// are the credential failures; an HTTP 500 that is no A2A error is
// InternalError (A2A §5.4 maps that status to it), a 502, 503 or 504 (a
// gateway that could not reach the agent) A2ACLI_ERR_UNREACHABLE; a reply
// that is not A2A is InvalidAgentResponseError, or
// VersionNotSupportedError when it is in the other A2A version's shapes;
// a wait that ran out of its budget (a deadline, or its attempts) is
// A2ACLI_ERR_TIMEOUT; context.Canceled is A2ACLI_ERR_INTERNAL with exit
// 130.
func classify(err error, credentialsGiven bool) cliError {
	if err == nil {
		return cliError{}
	}
	var (
		ce        cliError
		usage     usageError
		cardErr   *a2a.CardError
		sigErr    *a2a.CardSignatureError
		credErr   *a2a.CredentialError
		rpcErr    *a2a.RPCError
		byVersion *a2a.UnsupportedByVersionError
		byCard    *a2a.UnsupportedByCardError
		httpErr   *a2a.HTTPError
		protoErr  *a2a.ProtocolError
		tooLarge  *a2a.BodyTooLargeError
		untrusted *a2a.UntrustedEndpointError
	)
	switch {
	case errors.As(err, &ce):
		return ce
	case errors.As(err, &usage):
		return cliError{Code: cliErrUsage, Message: boundedMessage(usage.msg), Hint: "a2a help", Exit: errExitUsage}
	case errors.Is(err, context.Canceled):
		return cliError{Code: cliErrInternal, Message: "interrupted: " + errorMessage(err), Exit: errExitInterrupted}
	case timedOut(err):
		// No hint: the caller names the --timeout to exceed (and the
		// command that resumes), which it alone knows.
		return cliError{Code: cliErrTimeout, Message: errorMessage(err), Exit: errExitTimeout}
	case errors.As(err, &cardErr):
		return classifyCard(cardErr, credentialsGiven)
	case errors.As(err, &sigErr):
		hint := ""
		if sigErr.Status != a2a.CardSignatureInvalid {
			hint = "give the keys that sign the card with --card-keys FILE (or trust its jku host with --jku-host HOST)"
		}
		return cliError{Code: cliErrCardInvalid, Message: errorMessage(err), Hint: hint, Exit: errExitFailure}
	case errors.As(err, &credErr):
		code := cliErrCredentialsMissing
		if credentialsGiven {
			code = cliErrAuthFailed
		}
		return cliError{Code: code, Message: errorMessage(err), Hint: "a2a auth login", Exit: errExitAuth}
	case errors.As(err, &rpcErr):
		return classifyRPC(rpcErr, credentialsGiven)
	case errors.As(err, &byVersion):
		return cliError{Code: "UnsupportedOperationError",
			Message: byVersion.Method + " is not in A2A v" + byVersion.Version + " over JSON-RPC",
			Hint:    "--a2a-version 1.0 (or --transport HTTP+JSON)", Exit: errExitFailure}
	case errors.As(err, &byCard):
		return classifyCapability(byCard)
	case errors.As(err, &httpErr):
		return classifyHTTP(httpErr, errorMessage(err), credentialsGiven)
	case errors.As(err, &protoErr):
		return classifyProtocol(protoErr, err)
	case errors.As(err, &tooLarge):
		return cliError{Code: cliErrInternal, Message: errorMessage(err), Hint: "raise the cap with --max-bytes N", Exit: errExitFailure}
	case isUnreachable(err):
		return unreachableError(err, errorMessage(err))
	case errors.As(err, &untrusted):
		c := cliError{Code: cliErrInternal, Exit: errExitFailure,
			Message: "the agent card read at " + untrusted.CardOrigin + " names its endpoint on another origin, " + untrusted.Endpoint + "; credentials go only to the card's origin",
			Hint:    "if you trust that endpoint, call it directly with --endpoint URL"}
		if untrusted.Downgrade {
			c.Message, c.Hint = "the agent card read at "+untrusted.CardOrigin+" names a plain http endpoint, "+untrusted.Endpoint+"; credentials are never sent over http from a card read over https", ""
		}
		return c
	case errors.Is(err, a2a.ErrNoSupportedInterface):
		return cliError{Code: cliErrInternal, Message: "the agent card offers no interface this tool speaks (JSONRPC or HTTP+JSON, A2A v0.3 or v1.0)",
			Hint: "a2a card get lists the card's interfaces", Exit: errExitFailure}
	}
	return cliError{Code: cliErrInternal, Message: errorMessage(err), Exit: errExitFailure}
}

// errorMessage is err's text without the package's "a2a: " prefix and without
// the Go options the package's hints name (goFree), at most
// maxErrorMessage bytes.
func errorMessage(err error) string {
	return boundedMessage(goFree(strings.TrimPrefix(err.Error(), "a2a: ")))
}

// boundedMessage is s cut to maxErrorMessage bytes (with "…" after a cut).
func boundedMessage(s string) string { return inert.Truncate(s, maxErrorMessage) }

// goFree is s, the text of one of the package's errors, without the
// advice it gives a Go caller ("make the client with WithTransports(…)"):
// cut at the separator ("; ", ": ", " (", ", ") before the first such
// phrase, when there is one. The CLI's hint gives the flags instead.
func goFree(s string) string {
	at := -1
	for _, p := range []string{"make the client", "NewClientFromCard", "WithProtocolVersion", "WithTransports", "WithTrustedHosts", "WithExtensions"} {
		if i := strings.Index(s, p); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		return s
	}
	cut := -1
	for _, sep := range []string{"; ", ": ", " (", ", "} {
		if i := strings.LastIndex(s[:at], sep); i > cut {
			cut = i
		}
	}
	if cut <= 0 {
		return s
	}
	return strings.TrimSpace(s[:cut])
}

// timedOut reports whether err is a deadline that ran out (the command's
// --timeout, a poll's own timeout) or a wait that used up its budget (a
// *PollError other than a cancellation).
func timedOut(err error) bool {
	var pollErr *a2a.PollError
	if errors.As(err, &pollErr) && pollErr.Limit != a2a.PollLimitContext {
		return true
	}
	return errors.Is(err, context.DeadlineExceeded)
}

// isUnreachable reports whether err is a request that got no reply: a
// *TransportError, or a network, DNS or TLS error met outside the SDK
// (a download, a token endpoint).
func isUnreachable(err error) bool {
	var (
		transport *a2a.TransportError
		opErr     *net.OpError
		dnsErr    *net.DNSError
	)
	return errors.As(err, &transport) || errors.As(err, &opErr) || errors.As(err, &dnsErr) || isTLSFailure(err)
}

// isTLSFailure reports whether err is a TLS handshake or certificate
// failure; by its text too, as the SDK's redactor may have made a new
// error of it.
func isTLSFailure(err error) bool {
	var (
		unknownCA   x509.UnknownAuthorityError
		hostname    x509.HostnameError
		invalid     x509.CertificateInvalidError
		verify      *tls.CertificateVerificationError
		recordError tls.RecordHeaderError
	)
	if errors.As(err, &unknownCA) || errors.As(err, &hostname) || errors.As(err, &invalid) ||
		errors.As(err, &verify) || errors.As(err, &recordError) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "x509: ") || strings.Contains(s, "tls: ")
}

// unreachableError is the cliError of a request that got no reply, msg its
// text; for a TLS failure the hint names --cacert and, for development
// only, --insecure.
func unreachableError(err error, msg string) cliError {
	hint := "check the agent's URL (-a/--agent-card, --endpoint) and that the agent is running"
	var dnsErr *net.DNSError
	switch {
	case isTLSFailure(err):
		hint = "if the agent's certificate is signed by your own CA, add --cacert FILE; --insecure skips verification (for development only)"
	case errors.As(err, &dnsErr):
		hint = "check the host name in -a/--agent-card or --endpoint"
	}
	return cliError{Code: cliErrUnreachable, Message: msg, Hint: hint, Exit: errExitUnreachable}
}

// httpA2ACode is an HTTP status as an A2ACode: nil for none (0).
func httpA2ACode(status int) any {
	if status == 0 {
		return nil
	}
	return status
}

// non2xx is status when it is an HTTP status outside 2xx, else 0.
func non2xx(status int) int {
	if status >= 200 && status <= 299 {
		return 0
	}
	return status
}

// envelope is the spec's Appendix B error object on one line, without a
// trailing newline: {"error":{"code":…,"message":…,"hint":…|null,
// "a2aCode":…|null}}. An empty Hint is null; A2ACode is a number, a
// string or null (a value of another type is null); an empty Message is
// the Code. Every character that is not printable (controls, bidi and
// other format characters) is a \u escape, an invalid byte \ufffd, so the
// line is inert on a terminal; redact the fields before.
func (e cliError) envelope() []byte {
	msg := e.Message
	if msg == "" {
		msg = e.Code
	}
	b := []byte(`{"error":{"code":`)
	b = appendJSONString(b, e.Code)
	b = append(b, `,"message":`...)
	b = appendJSONString(b, msg)
	b = append(b, `,"hint":`...)
	if e.Hint == "" {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, e.Hint)
	}
	b = append(b, `,"a2aCode":`...)
	switch v := e.A2ACode.(type) {
	case int:
		b = strconv.AppendInt(b, int64(v), 10)
	case string:
		b = appendJSONString(b, v)
	default:
		b = append(b, "null"...)
	}
	return append(b, "}}"...)
}

// appendJSONString appends s as a JSON string: '"' and '\' escaped, "\n",
// "\r" and "\t" as such, every other rune that is not printable (or a
// space) as \uXXXX (a surrogate pair past U+FFFF), an invalid byte as
// \ufffd.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			b = append(b, `\ufffd`...)
		case r == ' ' || unicode.IsPrint(r):
			b = utf8.AppendRune(b, r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			b = fmt.Appendf(b, `\u%04x\u%04x`, r1, r2)
		default:
			b = fmt.Appendf(b, `\u%04x`, r)
		}
	}
	return append(b, '"')
}
