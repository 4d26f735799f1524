package a2atest

import (
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// SeedQRCode is the QR code URL used in the Caoliao agent docs.
const SeedQRCode = "https://qr71.cn/okDISU/qssTnoy"

// EntityCard is the illustrative structured data the [Caoliao] scenario puts
// in its "entity" artifact. The real ObjectCard v2 has more fields; this
// shape only mirrors the docs' one-line summary.
type EntityCard struct {
	Schema         string            `json:"schema"`
	Title          string            `json:"title"`
	Organization   string            `json:"organization"`
	Status         map[string]string `json:"status"`
	LedgerCount    int               `json:"ledgerCount"`
	AttributeCount int               `json:"attributeCount"`
	ActionCount    int               `json:"actionCount"`
}

// Record is one row of the [Caoliao] scenario's "records" artifact.
type Record struct {
	ID     string `json:"id"`
	Result string `json:"result"`
}

// The texts the Caoliao scenario answers with (from the Caoliao agent docs).
const (
	EntitySummary  = "数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个"
	FailureReason  = "查询失败:码不存在或无法解析"
	RecordsSummary = "共 2 条记录：合格 1 条，不合格 1 条"
	DeviceQuestion = "请提供要查询的设备编号"
)

// Caoliao is an [OnSend] handler that answers like the Caoliao agent and
// its gateway, so demos and tests can run every main path offline:
//
//   - a message containing [SeedQRCode] → a completed task with an "entity"
//     artifact ([EntityCard] data and [EntitySummary]);
//   - a message containing "记录" or "records" → a gateway-style task,
//     submitted, then working on the next two tasks/get calls and
//     completed on the third,
//     with a "records" artifact ([]Record under "records", [RecordsSummary]);
//   - a message containing "设备" or "device" → input-required with
//     [DeviceQuestion]; the follow-up on that task completes it as an entity;
//   - anything else → a failed task with [FailureReason] (a value, not an
//     error: the docs' "Failed response").
func Caoliao(msg a2a.Message) Reply {
	text := msg.Parts.Text()
	switch {
	case msg.TaskID != "" || strings.Contains(text, SeedQRCode):
		return Reply{Task: entityTask()}
	case strings.Contains(text, "记录") || strings.Contains(text, "records"):
		t := CompletedTask("records", map[string][]Record{"records": {{"r1", "合格"}, {"r2", "不合格"}}}, RecordsSummary)
		return Reply{Task: t, States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateWorking, a2a.TaskStateCompleted}}
	case strings.Contains(text, "设备") || strings.Contains(text, "device"):
		return Reply{Task: StatusTask(a2a.TaskStateInputRequired, DeviceQuestion)}
	default:
		return Reply{Task: FailedTask(FailureReason)}
	}
}

func entityTask() *a2a.Task {
	return CompletedTask("entity", EntityCard{
		Schema:         "ObjectCard v2",
		Title:          "数控车床-A08-03-06",
		Organization:   "草料二维码",
		Status:         map[string]string{"设备运行状态": "正常"},
		LedgerCount:    1,
		AttributeCount: 7,
		ActionCount:    2,
	}, EntitySummary)
}
