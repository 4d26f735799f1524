package a2a_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestTransportErrorPrintable: a TLS certificate's names are the server's
// text; one holding a terminal escape, a bidi override or a line break
// reaches TransportError.Error() escaped, as RPCError's message does.
func TestTransportErrorPrintable(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	hostile := "evil\x1b]8;;http://x\x07\x1b[31m\x7f\nINFO forged" // a DNS name is ASCII (IA5) only
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "a2a test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{hostile}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.StartTLS()
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "agent.example"}}}
	defer hc.CloseIdleConnections()
	c, err := a2a.NewClient(srv.URL, a2a.WithHTTPClient(hc), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetTask(t.Context(), "t1")
	var te *a2a.TransportError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v (%T), want a *TransportError", err, err)
	}
	if !strings.Contains(te.Err.Error(), hostile) {
		t.Fatalf("the certificate's name is not in the TLS error, the test checks nothing: %v", te.Err)
	}
	got := te.Error()
	if strings.ContainsAny(got, "\x1b\x07\n\x7f") {
		t.Errorf("TransportError.Error() = %q: raw control or format characters", got)
	}
	if !strings.Contains(got, `evil\x1b]8;;http://x\a\x1b[31m\x7f\nINFO forged`) {
		t.Errorf("TransportError.Error() = %q: the name is not shown escaped", got)
	}
}

// TestTransportErrorPrintableBuilt: the same for an error made by hand.
func TestTransportErrorPrintableBuilt(t *testing.T) {
	e := &a2a.TransportError{Method: "tasks/get", Attempts: 1, Err: errors.New("proxy says \x1b[2J\u200bhi\r")}
	if got, want := e.Error(), `a2a: tasks/get: transport: proxy says \x1b[2J\u200bhi\r (after 1 attempt)`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
