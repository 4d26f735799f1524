package a2a

import (
	"fmt"
	"slices"
)

// Folding stream events into a task (A2A v0.3 §7.2; A2A v1.0
// StreamResponse): Task.Apply, its bounded form, and what a folded task
// remembers so that folding n events costs O(n), not O(n²).

// Apply folds a stream event into t, so t is the task as it stands after
// the event: a *Task replaces t, and a status update sets t.Status, except
// that a terminal t keeps its status (a terminal task never changes state
// again, so a late "working" cannot undo a "completed"); an artifact
// update adds the artifact, replaces the one with the same ArtifactID, or,
// with Append, adds its parts to that one. A *Message is ignored, and so
// is an event about another task (t and the event both name one, and they
// differ). Ids that t lacks are taken from the event. Events are never
// modified: t gets its own artifact and part slices (status messages and
// metadata are shared). Once changed by an event other than a *Task,
// t.Raw() is nil: the bytes no longer describe it.
//
// Folding is linear: the first Apply on t copies its artifacts once, and
// later ones on the same t extend those slices in place (amortised), so n
// events cost O(n) time and memory in all, and finding an artifact by id
// does not scan the list. So a struct copy of t (c := *t) shares the
// slices t keeps extending: an artifact replaced or appended to by a later
// Apply on t shows in c too (Apply on c gives c slices of its own first).
// Replacing t.Artifacts between two Applies is seen (they are copied and
// indexed again); an ArtifactID changed in place is not (an event with
// the new id adds an artifact): change ids by replacing t.Artifacts.
//
// Apply sets no bound on the task it builds: to fold events from an agent,
// use [Task.ApplyWithin].
func (t *Task) Apply(ev Event) { _ = t.fold(ev, -1) }

// ApplyWithin is [Task.Apply] with a bound on the folded task: when ev
// would bring the size of t's artifacts over limit bytes, t is left as it
// was and the error is a *[FoldTooLargeError]; otherwise it applies ev
// and returns nil. A limit of 0 or less is [DefaultMaxResponseBytes].
// Give it the cap of the client the events came from
// ([WithMaxResponseBytes]), so that a folded task is bounded as a reply
// is: its size is counted from the artifacts' text, data, file bytes and
// URIs, names and metadata, plus 16 bytes for each part and artifact (an
// estimate of their size on the wire, not of the memory Go gives them).
func (t *Task) ApplyWithin(ev Event, limit int64) error {
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	return t.fold(ev, limit)
}

// FoldTooLargeError is an event that [Task.ApplyWithin], or a [PushWait]
// folding a notification, did not fold: the task would have held more
// than Limit bytes of artifacts. The task is left as it was before the
// event.
type FoldTooLargeError struct {
	// TaskID is the folded task's id, as received.
	TaskID string
	// Limit is the bound in bytes; Size the size the task would have had.
	Limit, Size int64
}

// Error returns e.g. "a2a: folded task would hold 10485800 bytes of
// artifacts, over the cap of 10485760". The task id, text from the
// network, is not in it.
func (e *FoldTooLargeError) Error() string {
	return fmt.Sprintf("a2a: folded task would hold %d bytes of artifacts, over the cap of %d", e.Size, e.Limit)
}

// foldState is what a task that Apply folded into remembers, so that the
// next Apply on it changes its slices in place: they are its own (copied
// from the events once), and the index finds an artifact without a scan.
// It holds for one *Task (owner) and for its Artifacts as Apply left them
// (data, n): a struct copy of the task, or Artifacts the caller replaced,
// make Apply copy again and rebuild it.
type foldState struct {
	owner *Task
	data  *Artifact      // the first element of Artifacts' array, nil for none
	n     int            // len(Artifacts)
	index map[string]int // an ArtifactID's first position in Artifacts
	sizes []int64        // each artifact's size (artifactSize)
	size  int64          // their sum
}

// fold applies ev to t, refusing it past limit bytes (no bound when limit
// is negative).
func (t *Task) fold(ev Event, limit int64) error {
	if task := eventTask(ev); t.ID != "" && task != "" && task != t.ID {
		return nil
	}
	switch e := ev.(type) {
	case *Task:
		arts := ownArtifacts(e.Artifacts)
		f := newFoldState(arts)
		if limit >= 0 && f.size > limit {
			return &FoldTooLargeError{TaskID: e.ID, Limit: limit, Size: f.size}
		}
		status := t.Status
		*t = *e
		t.Artifacts = arts // later updates must not write into the event
		f.keep(t)
		if status.State.Terminal() {
			t.Status, t.raw = status, nil
		}
	case *TaskStatusUpdateEvent:
		if t.Status.State.Terminal() {
			return nil
		}
		t.setIDs(e.TaskID, e.ContextID)
		t.Status = e.Status
	case *TaskArtifactUpdateEvent:
		f := t.folding()
		i, found := f.find(t.Artifacts, e.Artifact.ArtifactID)
		var add int64
		switch {
		case !found:
			add = artifactSize(&e.Artifact)
		case e.Append:
			add = partsSize(e.Artifact.Parts)
		default:
			add = artifactSize(&e.Artifact) - f.sizes[i]
		}
		if limit >= 0 && f.size+add > limit {
			id := t.ID
			if id == "" {
				id = e.TaskID
			}
			return &FoldTooLargeError{TaskID: id, Limit: limit, Size: f.size + add}
		}
		t.setIDs(e.TaskID, e.ContextID)
		art := e.Artifact
		art.Parts = slices.Clone(art.Parts)
		switch {
		case !found:
			f.index[art.ArtifactID] = len(t.Artifacts)
			t.Artifacts = append(t.Artifacts, art)
			f.sizes = append(f.sizes, add)
		case e.Append:
			// Parts arrays are only ever extended past their length, so a
			// snapshot holding a shorter slice of one never sees it change.
			t.Artifacts[i].Parts = append(t.Artifacts[i].Parts, art.Parts...)
			f.sizes[i] += add
		default:
			t.Artifacts[i] = art
			f.sizes[i] += add
		}
		f.size += add
		f.keep(t)
	}
	return nil
}

// setIDs takes the ids t lacks from an update, which changes t: its raw
// bytes no longer describe it.
func (t *Task) setIDs(taskID, contextID string) {
	if t.ID == "" {
		t.ID = taskID
	}
	if t.ContextID == "" {
		t.ContextID = contextID
	}
	t.raw = nil
}

// folding returns t's fold state, first making t's slices its own (a
// copy of its artifacts and their parts) unless the state is t's and
// describes its Artifacts as they are.
func (t *Task) folding() *foldState {
	if f := t.folded; f != nil && f.owner == t && f.n == len(t.Artifacts) && f.data == firstArtifact(t.Artifacts) {
		return f
	}
	t.Artifacts = ownArtifacts(t.Artifacts)
	f := newFoldState(t.Artifacts)
	f.keep(t)
	return f
}

// keep records f as t's fold state, describing t.Artifacts as they are.
func (f *foldState) keep(t *Task) {
	f.owner, f.n, f.data = t, len(t.Artifacts), firstArtifact(t.Artifacts)
	t.folded = f
}

// find returns the position of the first artifact with id in arts.
func (f *foldState) find(arts []Artifact, id string) (int, bool) {
	i, ok := f.index[id]
	if ok && arts[i].ArtifactID != id { // the caller renamed one in place
		*f = *newFoldState(arts)
		i, ok = f.index[id]
	}
	return i, ok
}

// newFoldState indexes and measures arts.
func newFoldState(arts []Artifact) *foldState {
	f := &foldState{index: make(map[string]int, len(arts)), sizes: make([]int64, len(arts))}
	for i := range arts {
		if _, dup := f.index[arts[i].ArtifactID]; !dup {
			f.index[arts[i].ArtifactID] = i
		}
		f.sizes[i] = artifactSize(&arts[i])
		f.size += f.sizes[i]
	}
	return f
}

// ownArtifacts copies arts and each artifact's parts slice (nil stays nil).
func ownArtifacts(arts []Artifact) []Artifact {
	arts = slices.Clone(arts)
	for i := range arts {
		arts[i].Parts = slices.Clone(arts[i].Parts)
	}
	return arts
}

// firstArtifact is the first element of arts' array, nil when it has none:
// with the length, it tells whether a task's Artifacts are still the
// slice Apply left.
func firstArtifact(arts []Artifact) *Artifact {
	if cap(arts) == 0 {
		return nil
	}
	return &arts[:1][0]
}

// snapshot returns a copy of t that later folds into t never change: its
// own artifact slice, and each artifact's parts slice cut to its length
// (Apply only extends a parts array past the length of the slices it
// handed out). It costs O(len(t.Artifacts)), not the parts' size.
func (t *Task) snapshot() *Task {
	c := *t
	c.folded = nil
	c.Artifacts = slices.Clone(t.Artifacts)
	for i := range c.Artifacts {
		c.Artifacts[i].Parts = slices.Clip(c.Artifacts[i].Parts)
	}
	return &c
}

// foldOverhead is the size counted for each part and artifact besides
// their contents: about the least the wire spends on one.
const foldOverhead = 16

// artifactSize estimates the bytes an artifact took on the wire.
func artifactSize(a *Artifact) int64 {
	n := foldOverhead + len(a.ArtifactID) + len(a.Name) + len(a.Description) + len(a.Metadata)
	for _, x := range a.Extensions {
		n += len(x)
	}
	return int64(n) + partsSize(a.Parts)
}

// partsSize estimates the bytes parts took on the wire.
func partsSize(ps Parts) int64 {
	var n int
	for _, p := range ps {
		n += foldOverhead
		switch p := p.(type) {
		case TextPart:
			n += len(p.Text) + len(p.MediaType) + len(p.Filename) + len(p.Metadata)
		case DataPart:
			n += len(p.Data) + len(p.MediaType) + len(p.Filename) + len(p.Metadata)
		case FilePart:
			n += len(p.File.Name) + len(p.File.MIMEType) + len(p.File.Bytes) + len(p.File.URI) + len(p.Metadata)
		case UnknownPart:
			n += len(p.PartKind) + len(p.Raw)
		}
	}
	return int64(n)
}
