package main

// Temporary stand-ins for the wave-1 pieces (deleted when they merge).

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

type setting struct{ Value, Source string }
type settings struct{ m map[string]setting }

func loadSettings(e env, names []string, configPath string) (*settings, []string, error) {
	s := &settings{m: map[string]setting{}}
	for _, n := range names {
		if v := e.getenv(n); v != "" {
			s.m[n] = setting{v, "environment"}
		}
	}
	return s, nil, nil
}
func (s *settings) get(name string) (setting, bool) { v, ok := s.m[name]; return v, ok }

type configRow struct {
	Name, Flag, Value, Source string
	Secret                    bool
}

func renderConfig(w io.Writer, rows []configRow, asJSON bool) error { return nil }

type storedToken struct {
	Origin, AccessToken, RefreshToken, TokenType, TokenURL, ClientID string
	Expiry                                                           time.Time
}
type loginParams struct {
	Flow, ClientID, ClientSecret string
	Scopes                       []string
}

func credentialPlan(card *a2a.AgentCard, bearer, apiKey string, stored *storedToken) ([]a2a.Option, func(http.RoundTripper) http.RoundTripper, error) {
	var opts []a2a.Option
	if bearer != "" {
		opts = append(opts, a2a.WithBearerToken(bearer))
	}
	if apiKey != "" {
		opts = append(opts, a2a.WithAPIKey(apiKey))
	}
	return opts, nil, nil
}
func needsCredentials(card *a2a.AgentCard) bool                      { return false }
func loadToken(dir, origin string) (*storedToken, error)             { return nil, nil }
func saveToken(dir string, t *storedToken) error                     { return nil }
func deleteToken(dir, origin string) error                           { return nil }
func tlsClient(insecure bool, c, k, ca string) (*http.Client, error) { return nil, nil }
func insecureWarning(credential bool) string                         { return "warning: insecure" }
func authLogin(ctx context.Context, card *a2a.AgentCard, p loginParams, prompt io.Writer, hc *http.Client) (*storedToken, error) {
	return nil, usagef("not yet")
}

type cardProblem struct{ Pointer, Problem string }

func validateCard(raw []byte) (string, []cardProblem) { return "", nil }

type checkResult struct {
	ID, Title string
	Pass      bool
	Detail    string
}

func conformance(ctx context.Context, card *a2a.AgentCard, newClient func(a2a.AgentInterface) (*a2a.Client, error)) []checkResult {
	return nil
}
func download(ctx context.Context, task *a2a.Task, dir string, force bool, fetch *http.Client, maxBytes int64) ([]string, error) {
	return nil, nil
}

type cliError struct {
	Code, Message, Hint string
	A2ACode             any
	Exit                int
}

func classify(err error, credentialsGiven bool) cliError {
	if _, ok := err.(usageError); ok {
		return cliError{Code: "A2ACLI_ERR_USAGE", Message: err.Error(), Exit: exitUsage}
	}
	return cliError{Code: "A2ACLI_ERR_INTERNAL", Message: err.Error(), Exit: exitError}
}
func (e cliError) envelope() []byte {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": e.Code, "message": e.Message, "hint": e.Hint, "a2aCode": e.A2ACode}})
	return b
}
