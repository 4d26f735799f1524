package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/caoliao-a2a/a2a-go"
)

// The card commands: card get (its --validate and --extended) and
// conformance.

func runCardGet(ctx context.Context, o *options, _ []string) int {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if o.endpoint != "" {
		return o.fail(usagef("card get reads a card: give -a/--agent-card, not --endpoint"))
	}
	if o.agentCard == "" {
		return o.fail(usagef("which agent? give -a/--agent-card with its host, card URL or card file (or A2ACLI_AGENT_CARD)"))
	}
	card, ref, err := o.readCard(ctx)
	if err != nil {
		return o.fail(err)
	}
	if o.extended {
		if card, err = o.extendedCard(ctx, card, ref); err != nil {
			return o.fail(err)
		}
	}
	var schema string
	if o.validate {
		var code int
		var ok bool
		if schema, code, ok = o.validated(card); !ok {
			return code
		}
	}
	if o.json() {
		o.outJSON(compact(card.Raw()))
		return exitOK
	}
	var chosen *a2a.AgentInterface
	if in, err := o.cardChoice(card, ref); err == nil {
		chosen = &in
	} else {
		o.errf("a2a: %v\n", err)
	}
	if schema != "" {
		o.field("Schema", "valid (A2A v"+schema+")")
	}
	o.printCard(card, chosen)
	return exitOK
}

// validated checks card against its version's schema (--validate); a
// card that breaks it is A2ACLI_ERR_CARD_INVALID, each problem listed.
func (o *options) validated(card *a2a.AgentCard) (string, int, bool) {
	version, problems := validateCard(card.Raw())
	if len(problems) == 0 {
		return version, exitOK, true
	}
	return version, o.fail(cardInvalid{fmt.Errorf("the card breaks the A2A v%s schema in %d %s: %s", version, len(problems), plural(len(problems), "place"), problemList(problems))}), false
}

// problemList is a card's schema problems on one line.
func problemList(problems []cardProblem) string {
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = cmp.Or(p.Pointer, "(card)") + ": " + p.Problem
	}
	return strings.Join(lines, "; ")
}

// extendedCard reads the authenticated extended card (--extended), only
// with a security scheme the public card declares (the specification's
// CARD_GET_003): credentials go nowhere the card does not ask for them.
func (o *options) extendedCard(ctx context.Context, card *a2a.AgentCard, ref agentRef) (*a2a.AgentCard, error) {
	if len(card.SecuritySchemes) == 0 {
		return nil, usagef("the agent's card declares no security scheme, so a2a sends no credentials for its extended card")
	}
	if !card.SupportsAuthenticatedExtendedCard && !card.Capabilities.ExtendedAgentCard {
		return nil, usagef("the agent's card does not offer an extended card")
	}
	in, err := o.cardChoice(card, ref)
	if err != nil {
		return nil, err
	}
	c, err := o.cardClient(card, in)
	if err != nil {
		return nil, err
	}
	o.spoken = c.ProtocolVersion()
	return c.GetExtendedAgentCard(ctx)
}

func runConformance(ctx context.Context, o *options, _ []string) int {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	card, _, err := o.readCard(ctx)
	if err != nil {
		return o.fail(err)
	}
	results := conformance(ctx, card, func(in a2a.AgentInterface) (*a2a.Client, error) { return o.cardClient(card, in) })
	if err := ctx.Err(); err != nil {
		return o.fail(err) // stopped or out of --timeout: the checks after it did not run
	}
	failed := 0
	for _, r := range results {
		if !r.Pass {
			failed++
		}
	}
	if o.json() {
		b, _ := json.Marshal(map[string]any{"checks": results, "failed": failed})
		o.outJSON(b)
	} else {
		for _, r := range results {
			verdict := "pass"
			switch {
			case r.Skipped:
				verdict = "skip"
			case !r.Pass:
				verdict = "FAIL"
			}
			o.field("Check", r.ID+" "+verdict)
			if r.Detail != "" {
				o.field("Detail", inFlags(r.Detail))
			}
		}
		o.field("Failed", failed)
	}
	if failed > 0 {
		return exitError
	}
	return exitOK
}
