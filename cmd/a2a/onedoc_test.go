package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// TestJSONOneDocument: with -o json every command prints exactly one JSON
// document on stdout (the contract's output rule), whether it succeeds or
// fails (the error envelope), whatever the task's outcome.
func TestJSONOneDocument(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.V10())
	site := siteOfAgent(agent)
	done := startTask(t, agent, a2a.ProtocolV10, "这个二维码是什么？"+a2atest.SeedQRCode)
	for _, args := range [][]string{
		{"send", "这个二维码是什么？" + a2atest.SeedQRCode},
		{"send", "查一台设备"},
		{"send", "--async", "本月巡检记录"},
		{"task", "get", done},
		{"task", "get", "--wait", "--poll-interval", "10ms", done},
		{"task", "get", "no-such-task"},
		{"task", "cancel", done},
		{"task", "list"},
		{"task", "subscribe", done},
		{"task", "download", "--dir", "DIR", done},
		{"task", "push-config", "create", "--config-id", "c1", done, "https://hooks.example.com/a2a"},
		{"task", "push-config", "get", done, "c1"},
		{"task", "push-config", "list", done},
		{"task", "push-config", "delete", done, "c1"},
		{"card", "get"},
		{"card", "get", "--validate"},
		{"config", "show"},
		{"auth", "logout"},
		{"conformance"},
		{"version"},
		{"send"},                          // a usage error
		{"send", "--bogus", "你好"},         // a flag error, -o json after it
		{"task", "get", "--timeout", "x"}, // a bad value
	} {
		for i, a := range args {
			if a == "DIR" {
				args[i] = t.TempDir()
			}
		}
		if args[0] != "version" {
			args = append(args, "-a", site)
		}
		r := a2aCmd(t, append(args, "-o", "json")...)
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		var v json.RawMessage
		err := dec.Decode(&v)
		if err == nil {
			err = dec.Decode(&v)
			if errors.Is(err, io.EOF) {
				err = nil
			} else if err == nil {
				err = errors.New("a second document")
			}
		}
		if err != nil || len(bytes.TrimSpace(v)) == 0 {
			t.Errorf("a2a %s -o json (exit %d): stdout is not one JSON document (%v):\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, err, r.stdout, r.stderr)
		}
	}

}
