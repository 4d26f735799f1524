package a2a

import (
	"testing"
)

func TestDialectOf(t *testing.T) {
	for v, want := range map[string]string{
		"1.0": ProtocolV10, "1.0.1": ProtocolV10, "1.12": ProtocolV10, "01.0": ProtocolV10,
		"0.3": ProtocolV03, "0.3.0": ProtocolV03, "0.2": ProtocolV03, "0.10.4": ProtocolV03,
		"": "", "1": "", "2.0": "", "1.0.0.0": "", "v1.0": "", "1.x": "", "-1.0": "", "+1.0": "", "1..0": "", " 1.0": "",
		"99999999999999999999.0": "",
	} {
		got, ok := dialectOf(v)
		if got != want || ok != (want != "") {
			t.Errorf("dialectOf(%q) = %q, %v; want %q", v, got, ok, want)
		}
	}
}
