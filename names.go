package a2a

import (
	"reflect"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// The name check for results decoded with encoding/json (push configs,
// agent cards; jsonResult): encoding/json binds a member to a field
// whatever its case and keeps the last of a repeated name, so such a reply
// is walked first by internal/jsonread's CheckNames, with a schema derived
// from the Go type it decodes into. Task, Message and the events need no
// walk: their decoders (wire_v03.go, wire_v10.go) check names as they
// read.

// schemas are the name check's schemas of the types jsonResult decodes,
// derived once each.
var schemas = jsonread.NewSchemas(wireFormsOf)

// wireFormer is a type whose UnmarshalJSON does not read its own fields'
// names: it decodes through other Go types, its wire forms, which know
// names the type has no field for (a v1.0 card's "securityRequirements", a
// security scheme's "apiKeySecurityScheme"). The name check walks the
// forms' names instead, so that every name the decoder binds is checked.
// wireForms returns at most one struct or map type (the form of a JSON
// object) and one slice type (the form of a JSON array); the method is
// only called on a new zero value.
type wireFormer interface {
	wireForms() []reflect.Type
}

// wireFormsOf returns the wire forms of t when a *t is a wireFormer, else
// nil: how the schemas learn them.
func wireFormsOf(t reflect.Type) []reflect.Type {
	if w, ok := reflect.New(t).Interface().(wireFormer); ok {
		return w.wireForms()
	}
	return nil
}
