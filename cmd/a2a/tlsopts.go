package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// The TLS flags (S§12.3, contract "Global flags"): --insecure turns
// certificate verification off (with a warning, never silently),
// --cert/--key present a client certificate (mutual TLS, AUTH_009),
// --cacert trusts one more certificate authority besides the system's.

// maxPEMBytes bounds a certificate, key or CA file read for the TLS flags:
// 1 MiB, far above any real bundle, so a wrong path (a device, a huge
// file) fails instead of filling memory.
const maxPEMBytes = 1 << 20

// tlsClient makes the HTTP client for --insecure (verification off),
// --cert/--key (a client certificate for mutual TLS, both PEM files) and
// --cacert (a PEM file of extra trusted CA certificates, added to the
// system pool). It returns nil, nil when none is set: the SDK's default
// client is then used. Its transport is a clone of http.DefaultTransport's
// settings (proxy from the environment, pooling, HTTP/2) with this TLS
// configuration (TLS 1.2 at least); it has no overall Timeout, so a stream
// may outlive any fixed bound (the SDK bounds each attempt). Errors: a
// usage error for --cert without --key or the reverse; an error naming
// the file for one that cannot be read, is larger than 1 MiB, or holds no
// usable certificate or key. No file's content is ever quoted.
func tlsClient(insecure bool, certFile, keyFile, caFile string) (*http.Client, error) {
	if !insecure && certFile == "" && keyFile == "" && caFile == "" {
		return nil, nil
	}
	if (certFile == "") != (keyFile == "") {
		return nil, usagef("--cert and --key go together (a client certificate and its private key, PEM files)")
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: insecure}
	if certFile != "" {
		certPEM, err := readPEMFile("--cert", certFile)
		if err != nil {
			return nil, err
		}
		keyPEM, err := readPEMFile("--key", keyFile)
		if err != nil {
			return nil, err
		}
		pair, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			// tls's message names what is wrong (no PEM block, a key
			// that does not match); it never holds the key's bytes.
			return nil, fmt.Errorf("--cert %s / --key %s: not a usable certificate and key: %w", quote(certFile), quote(keyFile), err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	if caFile != "" {
		caPEM, err := readPEMFile("--cacert", caFile)
		if err != nil {
			return nil, err
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(caPEM) {
			return nil, fmt.Errorf("--cacert %s: no PEM certificate in the file", quote(caFile))
		}
		cfg.RootCAs = pool
	}
	return &http.Client{Transport: transportWithTLS(cfg)}, nil
}

// transportWithTLS returns a clone of http.DefaultTransport with cfg, or,
// when a program replaced http.DefaultTransport with another kind of
// RoundTripper, a transport with the same defaults written out.
func transportWithTLS(cfg *tls.Config) *http.Transport {
	var tr *http.Transport
	if dt, ok := http.DefaultTransport.(*http.Transport); ok {
		tr = dt.Clone()
	} else {
		tr = &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          100,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ExpectContinueTimeout: time.Second,
		}
	}
	tr.TLSClientConfig = cfg
	return tr
}

// readPEMFile reads the file a TLS flag names, at most maxPEMBytes.
// Errors name the flag and the path (quoted, inert), never the content.
func readPEMFile(flag, path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxPEMBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, quote(path), err)
	}
	if len(b) > maxPEMBytes {
		return nil, fmt.Errorf("%s %s: larger than %d bytes: not a PEM file", flag, quote(path), maxPEMBytes)
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("%s %s: %w", flag, quote(path), errors.New("empty file"))
	}
	return b, nil
}

// insecureWarning is the line --insecure prints on stderr, every time
// (S§12: a tool MUST warn; AUTH_003: TLS checks are never silently off):
// louder, naming the credential flags, when a credential will be sent
// over the unverified connection. It ends without a newline and has no
// "a2a: " prefix (the caller writes it).
func insecureWarning(credential bool) string {
	if credential {
		return "WARNING: --insecure: TLS certificate verification is OFF and a credential " +
			"(--bearer, --api-key or a stored login token) will be sent: anyone on the network path " +
			"can pose as the agent and take it"
	}
	return "warning: --insecure: TLS certificate verification is off; the agent's identity is not checked"
}
