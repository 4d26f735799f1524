package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testPKI is a CA made for one test, and certificates it signs.
type testPKI struct {
	ca    *x509.Certificate
	caKey *ecdsa.PrivateKey
	dir   string
}

func newTestPKI(t *testing.T) *testPKI {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(der)
	p := &testPKI{ca: ca, caKey: key, dir: t.TempDir()}
	p.write(t, "ca.pem", "CERTIFICATE", der)
	return p
}

// write puts one PEM block in dir/name (0600) and returns its path.
func (p *testPKI) write(t *testing.T, name, typ string, der []byte) string {
	t.Helper()
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// issue returns a certificate for cn signed by the CA (a server one for
// 127.0.0.1 when server), as a tls.Certificate and as PEM files.
func (p *testPKI) issue(t *testing.T, cn string, server bool) (tls.Certificate, string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.ca, &key.PublicKey, p.caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile := p.write(t, cn+".pem", "CERTIFICATE", der)
	keyFile := p.write(t, cn+".key", "PRIVATE KEY", keyDER)
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	return pair, certFile, keyFile
}

// get sends GET url with hc, closing its idle connections after.
func get(t *testing.T, hc *http.Client, url string) (string, error) {
	t.Helper()
	defer hc.CloseIdleConnections()
	resp, err := hc.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func TestTLSClientNone(t *testing.T) {
	if hc, err := tlsClient(false, "", "", ""); hc != nil || err != nil {
		t.Errorf("tlsClient() = %v, %v; want nil, nil (the SDK's default client)", hc, err)
	}
}

func TestTLSClientCACertAndInsecure(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes are expected
	srv.StartTLS()
	defer srv.Close()
	// Default verification: the test server's certificate is unknown.
	_, err := get(t, &http.Client{Transport: testTransport(t)}, srv.URL)
	var cve *tls.CertificateVerificationError
	if !errors.As(err, &cve) {
		t.Fatalf("default client: %v, want an x509 verification error", err)
	}
	// --cacert with the server's certificate.
	p := &testPKI{dir: t.TempDir()}
	caFile := p.write(t, "server.pem", "CERTIFICATE", srv.Certificate().Raw)
	hc, err := tlsClient(false, "", "", caFile)
	if err != nil {
		t.Fatal(err)
	}
	if body, err := get(t, hc, srv.URL); err != nil || body != "ok" {
		t.Errorf("--cacert: %q, %v", body, err)
	}
	// --insecure.
	hc, err = tlsClient(true, "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if body, err := get(t, hc, srv.URL); err != nil || body != "ok" {
		t.Errorf("--insecure: %q, %v", body, err)
	}
	// --cacert of another CA: still refused.
	other := newTestPKI(t)
	hc, err = tlsClient(false, "", "", filepath.Join(other.dir, "ca.pem"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := get(t, hc, srv.URL); !errors.As(err, &cve) {
		t.Errorf("--cacert of another CA: %v, want a verification error", err)
	}
}

// Mutual TLS (AUTH_009): a server that requires a client certificate of
// its CA takes --cert/--key, and refuses a client without one.
func TestTLSClientMutualTLS(t *testing.T) {
	p := newTestPKI(t)
	serverCert, _, _ := p.issue(t, "server", true)
	_, certFile, keyFile := p.issue(t, "cli-client", false)
	pool := x509.NewCertPool()
	pool.AddCert(p.ca)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.TLS.PeerCertificates[0].Subject.CommonName)
	}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{serverCert}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	srv.StartTLS()
	defer srv.Close()
	caFile := filepath.Join(p.dir, "ca.pem")

	hc, err := tlsClient(false, certFile, keyFile, caFile)
	if err != nil {
		t.Fatal(err)
	}
	if body, err := get(t, hc, srv.URL); err != nil || body != "cli-client" {
		t.Errorf("--cert/--key: %q, %v; want the server to see cli-client", body, err)
	}
	hc, err = tlsClient(false, "", "", caFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := get(t, hc, srv.URL); err == nil {
		t.Error("no client certificate: the server took the request")
	}
}

func TestTLSClientErrors(t *testing.T) {
	p := newTestPKI(t)
	_, certFile, keyFile := p.issue(t, "c", false)
	_, _, otherKey := p.issue(t, "d", false)
	keyPEM, _ := os.ReadFile(keyFile)
	garbage := filepath.Join(p.dir, "garbage.pem")
	os.WriteFile(garbage, []byte("not a certificate"), 0o600)
	big := filepath.Join(p.dir, "big.pem")
	os.WriteFile(big, make([]byte, maxPEMBytes+1), 0o600)
	var ue usageError
	for _, tc := range []struct {
		name                string
		cert, key, ca, want string
		usage               bool
	}{
		{"cert without key", certFile, "", "", "--cert and --key go together", true},
		{"key without cert", "", keyFile, "", "--cert and --key go together", true},
		{"missing cert", filepath.Join(p.dir, "none.pem"), keyFile, "", "--cert", false},
		{"mismatched key", certFile, otherKey, "", "not a usable certificate and key", false},
		{"garbage CA", "", "", garbage, "no PEM certificate", false},
		{"huge CA", "", "", big, "larger than", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hc, err := tlsClient(false, tc.cert, tc.key, tc.ca)
			if hc != nil || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("tlsClient = %v, %v; want %q", hc, err, tc.want)
			}
			if errors.As(err, &ue) != tc.usage {
				t.Errorf("usage error: got %v, want %v", !tc.usage, tc.usage)
			}
			if strings.Contains(err.Error(), "PRIVATE KEY") || strings.Contains(err.Error(), string(keyPEM[30:60])) {
				t.Errorf("error %q quotes the key", err)
			}
		})
	}
}

func TestInsecureWarning(t *testing.T) {
	plain, loud := insecureWarning(false), insecureWarning(true)
	for _, w := range []string{plain, loud} {
		if !strings.Contains(w, "--insecure") || !strings.Contains(w, "verification is") || strings.ContainsAny(w, "\n\x1b") {
			t.Errorf("warning %q: want one line naming --insecure and that verification is off", w)
		}
	}
	if !strings.Contains(loud, "WARNING") || !strings.Contains(loud, "credential") || !strings.Contains(loud, "--bearer") || strings.Contains(plain, "credential") {
		t.Errorf("with a credential %q / without %q: the first must name the credential, louder", loud, plain)
	}
}
