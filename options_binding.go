package a2a

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The options that choose the binding a client speaks: the protocol
// version, the transports and the tenant (choice.go applies them to a
// card).

// WithProtocolVersion makes the client speak A2A version v: [ProtocolV03]
// ("0.3", the default for [NewClient], what Caoliao agents speak) or
// [ProtocolV10] ("1.0"). Versions are read as in an agent card: a patch
// part is ignored ("1.0.1"), any 1.x is spoken as 1.0 and any 0.x as 0.3.
// With [NewClientFromCard] it picks the card's interface of that version
// (an endpoint is never spoken to in another entry's version), and
// NewClientFromCard returns [ErrNoSupportedInterface] when the card has
// none. The version decides the method names (or, over HTTP+JSON, the
// paths: /v1/ on v0.3), the request and result shapes and the A2A-Version
// header; the Go types are the same for both.
// It returns an error from NewClient for any other version.
func WithProtocolVersion(v string) Option {
	return clientOption(func(c *clientConfig) error {
		d, ok := dialectOf(strings.TrimSpace(v))
		if !ok {
			return fmt.Errorf("a2a: protocol version %q is not one this client speaks (%s or %s)", v, ProtocolV03, ProtocolV10)
		}
		c.version = d
		return nil
	})
}

// WithTransports names the transports (bindings) the client may speak:
// [TransportJSONRPC] (JSON-RPC 2.0) and [TransportHTTPJSON] (HTTP+JSON,
// also called REST; A2A v1.0 §11, A2A v0.3 §3.5.6), in any case.
//
// [NewClientFromCard] then chooses among the card's interfaces of these
// transports alone, in the card's order, the agent's preference (A2A v1.0
// §8.3.2): the order of the list does not matter there;
// [WithPreferredTransports] makes it count. Without either option a card's
// interfaces of both transports are candidates.
//
// [NewClient] speaks the first transport named at its URL (JSON-RPC
// without this option): with WithTransports(TransportHTTPJSON) the URL is
// the agent's HTTP+JSON interface, the one its card lists (paths such as
// /message:send and /tasks/{id} are appended to it; A2A v0.3's /v1/ paths
// when the client speaks v0.3).
//
// NewClient and NewClientFromCard return an error for an empty list, a
// transport this package does not speak (gRPC among them) or one named
// twice. Of WithTransports and WithPreferredTransports, the last given
// counts.
func WithTransports(transports ...string) Option {
	return transportsOption("WithTransports", transports, false)
}

// WithPreferredTransports is [WithTransports] with the caller's order
// winning over the card's: [NewClientFromCard] takes the card's first
// interface of the first transport named that the card offers (card order
// only among the interfaces of one transport), as a2a-python's
// use_client_preference does. Everything else is as for WithTransports:
// only the transports named are allowed, and [NewClient] speaks the
// first.
func WithPreferredTransports(transports ...string) Option {
	return transportsOption("WithPreferredTransports", transports, true)
}

// transportsOption is WithTransports (clientOrder false) and
// WithPreferredTransports (true); name names it in errors.
func transportsOption(name string, transports []string, clientOrder bool) Option {
	return clientOption(func(c *clientConfig) error {
		if len(transports) == 0 {
			return fmt.Errorf("a2a: %s: no transport named", name)
		}
		var out []string
		for _, t := range transports {
			canon, ok := canonicalTransport(t)
			if !ok {
				return fmt.Errorf("a2a: %s: transport %q is not one this client speaks (%s or %s)", name, t, TransportJSONRPC, TransportHTTPJSON)
			}
			if slices.Contains(out, canon) {
				return fmt.Errorf("a2a: %s: transport %q is named twice", name, t)
			}
			out = append(out, canon)
		}
		c.transports, c.transport, c.clientOrder = out, out[0], clientOrder
		return nil
	})
}

// errSelectorREST is the error for an agent selector on an HTTP+JSON
// client.
var errSelectorREST = errors.New("a2a: WithAgentID and WithAgentCode put a member in the JSON-RPC request envelope, " +
	"which HTTP+JSON requests do not have; an HTTP+JSON agent behind a gateway is selected by its URL (or, in A2A v1.0, its tenant: WithTenant)")

// checkTransport checks what the transport the client speaks allows: on
// HTTP+JSON no agent selector (errSelectorREST), and a tenant that can be
// a path prefix (tenantPath).
func (cfg clientConfig) checkTransport() error {
	if cfg.transport != TransportHTTPJSON {
		return nil
	}
	if cfg.agentID != "" || cfg.agentCode != "" {
		return errSelectorREST
	}
	if _, err := tenantPath(cfg.tenant); err != nil {
		return fmt.Errorf("a2a: WithTenant: %w", err)
	}
	return nil
}

// canonicalTransport is the spelling of a transport this package speaks,
// named in any case (cards and SDKs differ): TransportJSONRPC or
// TransportHTTPJSON; false for any other.
func canonicalTransport(t string) (string, bool) {
	switch {
	case strings.EqualFold(t, TransportJSONRPC):
		return TransportJSONRPC, true
	case strings.EqualFold(t, TransportHTTPJSON):
		return TransportHTTPJSON, true
	}
	return "", false
}

// WithTenant sends tenant with every request (A2A v1.0, multi-tenancy:
// one endpoint serving several agents or tenants): on JSON-RPC as the
// params' "tenant", on HTTP+JSON as the path's first segments, the tenant
// split at "/" and each piece escaped as one segment
// ("projects/p/locations/l" gives .../projects/p/locations/l/tasks/{id}).
// [NewClientFromCard] takes it from the card's interface unless this option
// is given. [Tenant] overrides it for one call. A2A v0.3 has no tenant:
// NewClient returns an error when the client speaks v0.3, when tenant
// is empty or holds a control character, and on HTTP+JSON when a piece
// is empty (a leading, trailing or doubled "/"), "." or "..". The Caoliao gateway's agent
// selector is [WithAgentID] or [WithAgentCode], on either version.
func WithTenant(tenant string) Option {
	return clientOption(func(c *clientConfig) error {
		if err := checkHeaderValue("tenant", tenant); err != nil {
			return err
		}
		c.tenant = tenant
		return nil
	})
}
