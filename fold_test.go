package a2a_test

import (
	"errors"
	"fmt"
	"runtime"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// text is one text part.
func text(s string) a2a.Parts { return a2a.Parts{a2a.TextPart{Text: s}} }

// TestApplyFold folds artifact chunks: a new artifact, an appended chunk, a
// replacement, and a status update.
func TestApplyFold(t *testing.T) {
	var task a2a.Task
	task.Apply(&a2a.TaskStatusUpdateEvent{TaskID: "t", ContextID: "c", Status: a2a.TaskStatus{State: "working"}})
	task.Apply(&a2a.TaskArtifactUpdateEvent{TaskID: "t", Artifact: a2a.Artifact{ArtifactID: "a", Parts: text("第一段")}})
	task.Apply(&a2a.TaskArtifactUpdateEvent{TaskID: "t", Artifact: a2a.Artifact{ArtifactID: "a", Parts: text("第二段")}, Append: true, LastChunk: true})
	task.Apply(&a2a.TaskArtifactUpdateEvent{TaskID: "t", Artifact: a2a.Artifact{ArtifactID: "b", Parts: text("old")}})
	task.Apply(&a2a.TaskArtifactUpdateEvent{TaskID: "t", Artifact: a2a.Artifact{ArtifactID: "b", Parts: text("new")}})
	task.Apply(&a2a.Message{Parts: text("ignored")})
	task.Apply(&a2a.TaskStatusUpdateEvent{TaskID: "t", Status: a2a.TaskStatus{State: "completed"}, Final: true})
	want := a2a.Task{ID: "t", ContextID: "c", Status: a2a.TaskStatus{State: "completed"}, Artifacts: []a2a.Artifact{
		{ArtifactID: "a", Parts: a2a.Parts{a2a.TextPart{Text: "第一段"}, a2a.TextPart{Text: "第二段"}}},
		{ArtifactID: "b", Parts: text("new")},
	}}
	if diff := cmp.Diff(want, task, ignoreTaskInternals); diff != "" {
		t.Errorf("folded (-want +got):\n%s", diff)
	}
	if task.Raw() != nil {
		t.Errorf("a folded task keeps raw bytes: %s", task.Raw())
	}
}

// TestApplyDoesNotAlias: folding never writes into an event, and two tasks
// folded from one event stay apart.
func TestApplyDoesNotAlias(t *testing.T) {
	art := func(id, s string) a2a.Artifact { return a2a.Artifact{ArtifactID: id, Name: id, Parts: text(s)} }
	first := &a2a.Task{ID: "t", Artifacts: make([]a2a.Artifact, 1, 4)}
	first.Artifacts[0] = art("a", "orig")
	var t1, t2 a2a.Task
	t1.Apply(first)
	t2.Apply(first)
	t1.Apply(&a2a.TaskArtifactUpdateEvent{Artifact: art("a", "new")})
	t1.Apply(&a2a.TaskArtifactUpdateEvent{Artifact: art("a", "more"), Append: true})
	t1.Apply(&a2a.TaskArtifactUpdateEvent{Artifact: art("b", "b1")})
	t2.Apply(&a2a.TaskArtifactUpdateEvent{Artifact: art("c", "c1")})
	if got := first.Artifacts[0].Text(); got != "orig" || len(first.Artifacts) != 1 {
		t.Errorf("the event changed: %q, %d artifacts", got, len(first.Artifacts))
	}
	if t1.Artifact("a").Text() != "new\nmore" || t1.Artifact("b").Text() != "b1" || t1.Artifact("c") != nil {
		t.Errorf("t1 = %+v", t1.Artifacts)
	}
	if t2.Artifact("a").Text() != "orig" || t2.Artifact("c").Text() != "c1" || t2.Artifact("b") != nil {
		t.Errorf("t2 = %+v", t2.Artifacts)
	}
}

// TestApplyKeepsTerminal: a status update after a terminal state does not
// move the task back; artifacts still fold in.
func TestApplyKeepsTerminal(t *testing.T) {
	task := a2a.Task{ID: "t", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
	task.Apply(&a2a.TaskStatusUpdateEvent{TaskID: "t", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}})
	task.Apply(&a2a.TaskArtifactUpdateEvent{TaskID: "t", Artifact: a2a.Artifact{ArtifactID: "a", Parts: text("late")}})
	if task.Status.State != a2a.TaskStateCompleted || task.Artifacts[0].Text() != "late" {
		t.Errorf("task = %+v, want still completed with the late artifact", task)
	}
	// An event about another task changes nothing.
	task.Apply(&a2a.TaskStatusUpdateEvent{TaskID: "other", Status: a2a.TaskStatus{State: a2a.TaskStateFailed}})
	task.Apply(&a2a.Task{ID: "other", Status: a2a.TaskStatus{State: a2a.TaskStateFailed}})
	if task.Status.State != a2a.TaskStateCompleted || task.ID != "t" {
		t.Errorf("task = %+v, want t, still completed", task)
	}
	// A whole task that says otherwise brings its artifacts, not its state.
	task.Apply(&a2a.Task{ID: "t", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}, Artifacts: []a2a.Artifact{{ArtifactID: "b", Parts: text("snapshot")}}})
	if task.Status.State != a2a.TaskStateCompleted || task.Artifacts[0].Text() != "snapshot" || task.Raw() != nil {
		t.Errorf("task = %+v, want still completed with the snapshot's artifact", task)
	}
}

// chunks returns n append events of small text parts for one artifact, or,
// with spread, n events each adding an artifact of its own.
func chunks(n int, spread bool) []a2a.Event {
	evs := make([]a2a.Event, n)
	for i := range evs {
		id := "answer"
		if spread {
			id = fmt.Sprintf("a%d", i)
		}
		evs[i] = &a2a.TaskArtifactUpdateEvent{TaskID: "t", Append: i > 0 && !spread,
			Artifact: a2a.Artifact{ArtifactID: id, Parts: a2a.Parts{a2a.TextPart{Text: "几个字 a few words"}}}}
	}
	return evs
}

// foldBytes is the fewest bytes allocated, over three runs, by folding evs
// into a new task.
func foldBytes(evs []a2a.Event) uint64 {
	least := ^uint64(0)
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var task a2a.Task
		for _, ev := range evs {
			task.Apply(ev)
		}
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(&task)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// TestFoldLinear: folding twice the events allocates about twice the
// bytes, not four times, whether they are chunks of one artifact or
// artifacts of their own. Bytes are counted, not time.
func TestFoldLinear(t *testing.T) {
	for name, n := range map[string]int{"chunks": 4000, "artifacts": 1000} {
		one, two := foldBytes(chunks(n, name == "artifacts")), foldBytes(chunks(2*n, name == "artifacts"))
		if two >= 3*one {
			t.Errorf("%s: folding %d events allocated %d bytes, %d events %d bytes: %.1f×, want about 2×",
				name, n, one, 2*n, two, float64(two)/float64(one))
		}
	}
}

// BenchmarkFold folds n append events of small text parts into one
// artifact: 32,000 should cost about twice what 16,000 do.
func BenchmarkFold(b *testing.B) {
	for _, n := range []int{16000, 32000} {
		evs := chunks(n, false)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var task a2a.Task
				for _, ev := range evs {
					task.Apply(ev)
				}
			}
		})
	}
}

// TestApplyWithin: past the bound, the event is refused with a
// *FoldTooLargeError and the task is left as it was; a replacement that
// shrinks an artifact frees room; a whole task over the bound is refused
// too; a limit of 0 is the default cap.
func TestApplyWithin(t *testing.T) {
	part := func(n int) a2a.Parts { return a2a.Parts{a2a.TextPart{Text: string(make([]byte, n))}} }
	art := func(id string, n int, appendix bool) *a2a.TaskArtifactUpdateEvent {
		return &a2a.TaskArtifactUpdateEvent{TaskID: "t", Append: appendix, Artifact: a2a.Artifact{ArtifactID: id, Parts: part(n)}}
	}
	const limit = 1000
	var task a2a.Task
	for _, ev := range []a2a.Event{art("a", 400, false), art("a", 400, true), art("b", 50, false)} {
		if err := task.ApplyWithin(ev, limit); err != nil {
			t.Fatalf("within the bound: %v", err)
		}
	}
	before := task
	before.Artifacts = append([]a2a.Artifact(nil), task.Artifacts...)
	before.Artifacts[0].Parts = append(a2a.Parts(nil), task.Artifacts[0].Parts...)
	for name, ev := range map[string]a2a.Event{
		"append":       art("a", 200, true),
		"new artifact": art("c", 200, false),
		"replace":      art("b", 300, false),
		"whole task":   &a2a.Task{ID: "t", Artifacts: []a2a.Artifact{{ArtifactID: "z", Parts: part(limit)}}},
	} {
		err := task.ApplyWithin(ev, limit)
		var big *a2a.FoldTooLargeError
		if !errors.As(err, &big) || big.Limit != limit || big.Size <= limit || big.TaskID != "t" {
			t.Errorf("%s: err = %v, want a *FoldTooLargeError over %d", name, err, limit)
		}
		if diff := cmp.Diff(before, task, ignoreTaskInternals); diff != "" {
			t.Errorf("%s: the refused event changed the task (-before +after):\n%s", name, diff)
		}
	}
	// Replacing "a" by a small artifact frees room for a larger "b".
	if err := task.ApplyWithin(art("a", 10, false), limit); err != nil {
		t.Fatal(err)
	}
	if err := task.ApplyWithin(art("b", 700, false), limit); err != nil {
		t.Errorf("after freeing room: %v", err)
	}
	// 0 is DefaultMaxResponseBytes.
	var big a2a.Task
	if err := big.ApplyWithin(art("a", a2a.DefaultMaxResponseBytes, false), 0); err == nil {
		t.Errorf("an artifact of DefaultMaxResponseBytes was folded within the default cap")
	}
	if err := big.ApplyWithin(art("a", 1000, false), 0); err != nil {
		t.Errorf("a small artifact within the default cap: %v", err)
	}
}

// TestApplyOwnsItsSlices: Apply, which extends its own slices in place,
// never writes into slices it did not make: a struct copy's, or ones the
// caller put in the task between two Applies; and an artifact the caller
// renamed in place no longer answers to its old id.
func TestApplyOwnsItsSlices(t *testing.T) {
	chunk := func(id, s string, appendix bool) *a2a.TaskArtifactUpdateEvent {
		return &a2a.TaskArtifactUpdateEvent{Append: appendix, Artifact: a2a.Artifact{ArtifactID: id, Name: id, Parts: text(s)}}
	}
	var task a2a.Task
	task.Apply(chunk("a", "1", false))
	task.Apply(chunk("a", "2", true))
	copied := task
	copied.Apply(chunk("a", "copy", true))
	copied.Apply(chunk("b", "copy", false))
	task.Apply(chunk("a", "3", true))
	if task.Artifact("a").Text() != "1\n2\n3" || task.Artifact("b") != nil {
		t.Errorf("the copy's folds reached the task: %+v", task.Artifacts)
	}
	if copied.Artifact("a").Text() != "1\n2\ncopy" || copied.Artifact("b").Text() != "copy" {
		t.Errorf("copy = %+v", copied.Artifacts)
	}

	mine := make([]a2a.Artifact, 1, 8)
	mine[0] = a2a.Artifact{ArtifactID: "m", Name: "m", Parts: make(a2a.Parts, 1, 8)}
	mine[0].Parts[0] = a2a.TextPart{Text: "mine"}
	task.Artifacts = mine
	task.Apply(chunk("m", "more", true))
	task.Apply(chunk("n", "new", false))
	if mine[:2][1].ArtifactID != "" || mine[0].Parts[:2][1] != nil || len(mine[0].Parts) != 1 {
		t.Errorf("Apply wrote into the caller's slices: %+v", mine[:2])
	}
	if task.Artifact("m").Text() != "mine\nmore" || task.Artifact("n").Text() != "new" {
		t.Errorf("task = %+v", task.Artifacts)
	}

	// An artifact renamed in place no longer answers to its old id.
	task.Artifacts[0].ArtifactID = "renamed"
	task.Apply(chunk("m", "again", true))
	if len(task.Artifacts) != 3 || task.Artifacts[0].Text() != "mine\nmore" || task.Artifacts[2].Text() != "again" {
		t.Errorf("after a rename in place: %+v", task.Artifacts)
	}
}
