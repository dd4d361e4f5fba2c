package search_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/search"
	"github.com/roundsedu/rounds/platform/auth"
)

// strict decodes a payload refusing fields the consumer's type lacks.
func strict(raw []byte, dst any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	return d.Decode(dst)
}

// payloads reads what was published on topic about question id, in order.
func payloads(topic string, id int64) [][]byte {
	var rows []string
	Expect(local.App.DB.Conn(context.Background()).Raw(fmt.Sprintf(
		`SELECT payload::text FROM events.%q WHERE (payload->>'id')::bigint = ? ORDER BY transaction_id, "offset"`, topic), id).
		Scan(&rows).Error).To(Succeed())
	out := make([][]byte, len(rows))
	for i, r := range rows {
		out[i] = []byte(r)
	}
	return out
}

var _ = Describe("The bank's events", func() {
	It("decode with the consumers' types, every change of a question's life", func() {
		c := newUser(local, auth.RoleModerator).Client(local)
		res := c.Post("/api/v1/questions/create", map[string]any{
			"question_text": "Contract check: first sign of lithium toxicity?", "question_type": "mcq",
			"options": []string{"Tremor", "Rash"}, "correct_answer": "Tremor", "explanation": "Coarse tremor comes first.",
		})
		Expect(res).To(HaveStatus201())
		id := int64(res.Map()["id"].(float64))
		Expect(c.Patch("/api/v1/questions/"+itoa(id), map[string]any{"question_text": "Contract check: lithium toxicity?"})).
			To(HaveStatusOK())
		Expect(c.Delete("/api/v1/questions/" + itoa(id))).To(HaveStatus204())
		Expect(c.Patch("/api/v1/questions/"+itoa(id)+"/restore", nil)).To(HaveStatusOK())
		Expect(c.Delete("/api/v1/questions/" + itoa(id))).To(HaveStatus204()) // only the trash is purged
		Expect(c.Delete("/api/v1/questions/" + itoa(id) + "/permanent")).To(HaveStatus204())

		var changes []bank.QuestionChanged
		for _, raw := range payloads(bank.TopicQuestionChanged.Name(), id) {
			var e bank.QuestionChanged
			Expect(strict(raw, &e)).To(Succeed(), string(raw))
			changes = append(changes, e)
		}
		var index []search.IndexChanged
		for _, raw := range payloads(search.TopicIndexChanged.Name(), id) {
			var e search.IndexChanged
			Expect(strict(raw, &e)).To(Succeed(), string(raw))
			index = append(index, e)
		}
		Expect(changes).To(HaveLen(6))
		Expect(index).To(HaveLen(len(changes)), "one index event per change")
		for i, e := range changes {
			Expect(index[i]).To(Equal(bank.IndexOf(e)))
		}
		Expect(index[0].Title).To(Equal("Contract check: first sign of lithium toxicity?"))
		Expect(index[0].Body).To(Equal("Tremor\nRash"))
		Expect(index[0].Hidden).To(Equal("Coarse tremor comes first."))
		Expect(index[2].Live).To(BeFalse(), "trashed")
		Expect(index[3].Live).To(BeTrue(), "restored")
		Expect(index[5].Purged).To(BeTrue())
		Eventually(func() bool { return purged(local, id) }, "10s", "20ms").Should(BeTrue())
	})
})
