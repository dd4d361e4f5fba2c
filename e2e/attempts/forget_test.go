package attempts_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// owned counts a user's rows in every attempts table that has an owner.
func owned(userID int64) int {
	var n int
	ExpectWithOffset(1, h.App.DB.Conn(ctxb).Raw(`SELECT
		  (SELECT count(*) FROM attempts.attempts WHERE user_id = ?)
		+ (SELECT count(*) FROM attempts.saved_progress WHERE user_id = ?)
		+ (SELECT count(*) FROM attempts.review_schedule WHERE user_id = ?)
		+ (SELECT count(*) FROM attempts.collections WHERE user_id = ?)
		+ (SELECT count(*) FROM attempts.folders WHERE user_id = ?)
		+ (SELECT count(*) FROM attempts.notes WHERE user_id = ?)`,
		userID, userID, userID, userID, userID, userID).Scan(&n).Error).To(Succeed())
	return n
}

var _ = Describe("A deleted account", func() {
	It("loses its attempts, progress, schedule, collections, folders and notes, and no one else's", func() {
		quiz, ids := cardioQuiz(quizOpts{})
		gone, kept := learner(), learner()
		for _, u := range []*User{gone, kept} {
			c := u.Client(h)
			submit(u, start(u, quiz, "").ID, nil)
			a := start(u, quiz, "")
			Expect(c.Post("/api/v1/attempts/progress", save(quiz, a.ID, map[int64]string{ids[0]: "x"}, nil))).To(HaveStatus(200))
			folder := c.Post("/api/v1/folders", map[string]any{"name": "F"}).ID()
			coll := c.Post("/api/v1/collections", map[string]any{"name": "C", "folder_id": folder}).ID()
			Expect(c.Put(fmt.Sprintf("/api/v1/collections/%d/questions/%d", coll, ids[0]), nil)).To(HaveStatus(204))
			Expect(c.Put(fmt.Sprintf("/api/v1/notes/%d", ids[0]), map[string]any{"body": "n"})).To(HaveStatus(200))
		}
		keptBefore := owned(kept.ID)
		Expect(owned(gone.ID)).To(BeNumerically(">=", 7))

		admin := h.NewUser(auth.RoleAdmin)
		Expect(admin.Client(h).Delete(fmt.Sprintf("/api/v1/admin/users/%d", gone.ID))).To(HaveStatus(204))
		Eventually(func() int { return owned(gone.ID) }).WithTimeout(15 * time.Second).Should(BeZero())
		Expect(owned(kept.ID)).To(Equal(keptBefore))
		var orphans int
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM attempts.collection_questions cq
			WHERE NOT EXISTS (SELECT 1 FROM attempts.collections c WHERE c.id = cq.collection_id)`).
			Scan(&orphans).Error).To(Succeed())
		Expect(orphans).To(BeZero())
	})
})
