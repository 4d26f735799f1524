package main

// Temporary stand-ins for the wave-1 pieces (deleted when they merge).

import (
	"io"
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
