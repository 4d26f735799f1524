package main

import (
	"cmp"
	"flag"
	"strings"
	"sync"
)

// Where a flag not on the command line gets its value: its A2ACLI_
// variable, from the environment or a .env file.

// notFromEnv are the flags that are never read from the environment or a
// file: those the specification's §7.2 names, and a message's parts.
var notFromEnv = map[string]bool{"stream": true, "help": true, "version": true, "config": true,
	// A message's content is typed, in order, never inherited.
	"text": true, "file": true, "data": true, "media-type": true}

// envName is the variable of a flag: A2ACLI_ and its long name in upper
// snake case (--agent-card: A2ACLI_AGENT_CARD).
func envName(long string) string {
	return "A2ACLI_" + strings.ToUpper(strings.NewReplacer("-", "_", "+", "_").Replace(long))
}

// load gives each flag not on the command line its value from its
// A2ACLI_ variable: the environment's, else the local .env's (or
// --config's), else the global .env's; it says on stderr what the files
// hold that it cannot use.
func (o *options) load() error {
	s, warnings, err := loadSettings(o.env, settingNames(), o.configPath)
	if err != nil {
		return usagef("%v", err)
	}
	o.settings = s
	for _, w := range warnings {
		o.errf("a2a: warning: %s\n", w)
	}
	var bad error
	o.fs.VisitAll(func(f *flag.Flag) {
		if _, alias := o.short[f.Name]; alias || notFromEnv[f.Name] || o.source[f.Name] != "" || bad != nil {
			return
		}
		st, ok := s.get(envName(f.Name))
		if !ok {
			return
		}
		values := []string{st.Value}
		if f.Name == "svc-param" {
			values = strings.Split(st.Value, ";")
		}
		for _, v := range values {
			if err := f.Value.Set(v); err != nil {
				bad = usagef("%s (from the %s): %v", envName(f.Name), st.Source, err)
				return
			}
		}
		o.source[f.Name] = st.Source
	})
	return bad
}

// settingNames are the A2ACLI_ variables of every command's flags: a
// .env may hold the settings of several commands, and only a name none
// has is warned about.
var settingNames = sync.OnceValue(func() []string {
	seen := map[string]bool{}
	var names []string
	add := func(o *options) {
		o.fs.VisitAll(func(f *flag.Flag) {
			if _, alias := o.short[f.Name]; !alias && !notFromEnv[f.Name] && !seen[f.Name] {
				seen[f.Name] = true
				names = append(names, envName(f.Name))
			}
		})
	}
	for _, co := range defaultOptions() {
		add(co)
	}
	return names
})

// warnAgentSource warns when a .env found by walking up from the working
// directory names the agent while a credential comes from elsewhere (the
// environment, the global file, a flag): such a file may be anyone's (a
// cloned repository's), and the credential would go to the agent it
// names.
func (o *options) warnAgentSource() {
	for _, agent := range []string{"agent-card", "endpoint"} {
		src := o.source[agent]
		if !strings.HasPrefix(src, "file ") || o.configPath != "" || src == "file "+globalConfigPath(o.env) {
			continue // not a .env found by walking up
		}
		for _, cred := range []string{"bearer", "api-key"} {
			if f := o.fs.Lookup(cred); f != nil && f.Value.String() != "" && o.source[cred] != src {
				o.errf("a2a: warning: the agent (%s) comes from the %s, and --%s from the %s: it is sent to that agent; check the file is yours\n",
					envName(agent), src, cred, cmp.Or(o.source[cred], "default"))
			}
		}
	}
}
