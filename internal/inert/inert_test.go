package inert

import "testing"

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":           "plain text",
		`{"a":"b"}`:            `{"a":"b"}`,
		"这个二维码":                "这个二维码",
		"line\nbreak\ttab":     `line\nbreak\ttab`,
		"\x1b[31mred":          `\x1b[31mred`,
		"bidi\u202eoverride":   `bidi\u202eoverride`,
		"bad \xff byte":        `bad \xff byte`,
		"kept \uFFFD as it is": "kept \uFFFD as it is",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc…"},
		{"中文字", 4, "中…"}, // 3 bytes a character: cut before the second
		{"中文字", 2, "…"},
	} {
		if got := Truncate(tc.in, tc.n); got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
