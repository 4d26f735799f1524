package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// specIDs are the requirement ids of the A2A CLI specification v0.2
// (COMPLIANCE.md at a2aproject/a2a-cli 8dd9249e), by tier, in its order.
var specIDs = [3][]string{
	{"CARD_GET_001", "SEND_001", "SEND_002", "SEND_003", "SEND_004", "SEND_005", "SEND_006", "TASK_GET_001", "TASK_CANCEL_001",
		"INTERACT_001", "INTERACT_002", "INTERACT_003", "INTERACT_004", "INTERACT_005", "TASK_POLL_001", "TASK_POLL_002", "TASK_POLL_003",
		"TASK_POLL_004", "OUT_001", "OUT_002", "OUT_003", "OUT_004", "OUT_005", "OUT_006", "EXIT_001", "EXIT_002", "AUTH_001", "AUTH_002",
		"AUTH_003", "AUTH_004", "TX_001", "TX_002", "TX_003", "VER_001", "DEFAULT_001", "CONFIG_001", "CLI_001", "SKILL_001", "SKILL_002"},
	{"CARD_GET_002", "TASK_LIST_001", "TASK_SUBSCRIBE_001", "TASK_SUBSCRIBE_002", "AUTH_005", "AUTH_006", "AUTH_007", "TX_004", "VER_003",
		"CONFIG_002", "DOWNLOAD_001", "OUT_007", "CONFORM_001", "CLI_002", "PUSH_001"},
	{"CARD_GET_003", "AUTH_008", "CARD_GET_004", "CARD_GET_005", "PUSH_002", "CHAT_001", "TX_005", "AUTH_009", "AUTH_010", "AUTH_011",
		"DEMO_SERVER_001", "VER_002"},
}

// TestComplianceTable checks docs/cli-compliance.md: every requirement id
// once, in the specification's order and tiers; a status of met, partly,
// not or n/a; a note for anything but met; a test for anything met or
// partly, each test it names a Test function of the file it names (in
// cmd/a2a or interop); and the summary's counts those of the rows.
func TestComplianceTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli-compliance.md"))
	if err != nil {
		t.Fatal(err)
	}
	tier := -1
	var got [3][]string
	counts := [3]map[string]int{{}, {}, {}}
	for line := range strings.SplitSeq(string(b), "\n") {
		if strings.HasPrefix(line, "## Tier ") {
			tier++
			continue
		}
		if !strings.HasPrefix(line, "| `A2ACLI_") {
			continue
		}
		cells := strings.Split(line, "|")
		cells = cells[1 : len(cells)-1]
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if len(cells) != 5 || tier < 0 || tier > 2 {
			t.Errorf("row %q: want 5 cells under a Tier heading", line)
			continue
		}
		id, status, tests, note := strings.Trim(cells[0], "`"), cells[2], cells[3], cells[4]
		got[tier] = append(got[tier], strings.TrimPrefix(id, "A2ACLI_"))
		counts[tier][status]++
		switch status {
		case "met":
		case "partly", "not", "n/a":
			if strings.TrimSpace(note) == "" {
				t.Errorf("%s is %s without a note", id, status)
			}
		default:
			t.Errorf("%s: status %q, want met, partly, not or n/a", id, status)
		}
		if (status == "met" || status == "partly") && !strings.Contains(tests, "Test") {
			t.Errorf("%s is %s and names no test", id, status)
		}
		for _, err := range checkCitedTests(tests) {
			t.Errorf("%s: %v", id, err)
		}
	}
	for i := range specIDs {
		if !slices.Equal(got[i], specIDs[i]) {
			t.Errorf("Tier %d: ids %v,\nwant %v", i+1, got[i], specIDs[i])
		}
		want := fmt.Sprintf("| %d | %d | %d | %d | %d |", len(specIDs[i]), counts[i]["met"], counts[i]["partly"], counts[i]["not"], counts[i]["n/a"])
		if !summaryRowMatches(string(b), i+1, want) {
			t.Errorf("the summary's Tier %d row does not say %s", i+1, want)
		}
	}
}

// summaryRowMatches reports whether the summary's row of tier holds the
// counts want ("| ids | met | partly | not | n/a |"), the words after
// each count (the ids named) aside.
func summaryRowMatches(doc string, tier int, want string) bool {
	counts := regexp.MustCompile(` \([^)]*\)`)
	for line := range strings.SplitSeq(doc, "\n") {
		if rest, ok := strings.CutPrefix(line, fmt.Sprintf("| Tier %d — ", tier)); ok {
			_, row, _ := strings.Cut(rest, " |")
			return counts.ReplaceAllString("|"+row, "") == want
		}
	}
	return false
}

// citation is a test named in the table: `path:TestName`, or `TestName`
// after one (the same file).
var citation = regexp.MustCompile("`((?:cmd/a2a|interop)/[^`:]+\\.go)(?::(Test\\w+))?`|`(Test\\w+)`")

// checkCitedTests checks that each test a cell names is a Test function
// of the file named before it.
func checkCitedTests(cell string) []error {
	var errs []error
	file := ""
	for _, m := range citation.FindAllStringSubmatch(cell, -1) {
		name := m[2] + m[3]
		if m[1] != "" {
			file = m[1]
		}
		if name == "" {
			continue
		}
		if file == "" {
			errs = append(errs, fmt.Errorf("%s names no file", name))
			continue
		}
		src, err := os.ReadFile(filepath.Join("..", "..", file))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !regexp.MustCompile(`(?m)^func ` + name + `\(t \*testing\.T\)`).Match(src) {
			errs = append(errs, fmt.Errorf("%s has no %s", file, name))
		}
	}
	return errs
}
