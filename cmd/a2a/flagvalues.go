package main

import (
	"fmt"
	"strings"
)

// The values of the repeatable flags, and the error of a bad one.

// paramList is the repeatable --svc-param K:V (or K=V): A2A service
// parameters, sent as HTTP headers. An entry that is neither is kept
// aside and reported by check, without its text: it may be a secret.
type paramList struct {
	kv  [][2]string
	bad bool
}

// String is how many there are (their values are secrets).
func (p *paramList) String() string {
	if p == nil || len(p.kv) == 0 {
		return ""
	}
	return fmt.Sprintf("%d %s", len(p.kv), plural(len(p.kv), "parameter"))
}

func (p *paramList) Set(v string) error {
	i := strings.IndexAny(v, ":=")
	if i <= 0 || strings.TrimSpace(v[:i]) == "" {
		p.bad = true
		return nil
	}
	p.kv = append(p.kv, [2]string{strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1:])})
	return nil
}

// extensionList is the repeatable --extension URI: the A2A extensions
// every request activates (checked by the package's option: check).
type extensionList []string

func (l *extensionList) String() string { return strings.Join(*l, ",") }

func (l *extensionList) Set(v string) error {
	for u := range strings.SplitSeq(v, ",") {
		if u = strings.TrimSpace(u); u != "" {
			*l = append(*l, u)
		}
	}
	return nil
}

// stringList is a repeatable flag of plain values.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, " ") }

func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// errNotShown is the error of a --svc-param that is neither K:V nor K=V:
// its text may be a secret, so it is not repeated.
var errNotShown = usageError{msg: "a --svc-param (or A2ACLI_SVC_PARAM entry) is not K:V or K=V; it is not shown here, as it may hold a secret"}
