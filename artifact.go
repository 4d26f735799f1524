package a2a

import (
	"encoding/json"
	"errors"
)

// Artifact is an output of a task, made of parts. A Caoliao artifact is named
// "entity", "records" or "actions" and holds a [DataPart] (structured data
// for programs) and a [TextPart] (a one-line summary, usually in Chinese).
// Spec: A2A v0.3 §6.7; the Caoliao agent docs ("The two artifact parts").
//
// The methods of *Artifact are safe on a nil receiver, so the result of
// [Task.Artifact] can be used without a nil check.
type Artifact struct {
	ArtifactID  string          `json:"artifactId"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Parts       Parts           `json:"parts"`
	Metadata    json.RawMessage `json:"metadata,omitzero"`
	Extensions  []string        `json:"extensions,omitzero"`
}

// Text returns the text of the artifact's text parts joined with newlines:
// for Caoliao, the one-line summary. It returns "" for a nil artifact.
func (a *Artifact) Text() string {
	if a == nil {
		return ""
	}
	return a.Parts.Text()
}

// Data returns the artifact's first [DataPart] and true, or false when the
// artifact is nil or has none.
func (a *Artifact) Data() (DataPart, bool) {
	if a == nil {
		return DataPart{}, false
	}
	return a.Parts.Data()
}

// ErrNoData is returned by [Artifact.DecodeData] when the artifact is nil or
// has no [DataPart], and by [DataPart.Decode] for a part without data.
var ErrNoData = errors.New("a2a: no data to decode")

// DecodeData unmarshals the artifact's first [DataPart] into v, as
// [encoding/json.Unmarshal] does, in one step from what [Task.Artifact]
// returns:
//
//	var records Records
//	err := task.Artifact("records").DecodeData(&records)
//
// It returns [ErrNoData] when the artifact is nil or has no DataPart, or
// the [encoding/json] error when the data does not fit v.
func (a *Artifact) DecodeData(v any) error {
	d, ok := a.Data()
	if !ok {
		return ErrNoData
	}
	return d.Decode(v)
}
