package bank_test

import (
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/auth"
)

// snapshotBody is one item of GET /admin/classification-snapshots.
type snapshotBody struct {
	ID        int64   `json:"id"`
	Kind      string  `json:"kind"`
	Reason    string  `json:"reason"`
	JobID     *string `json:"job_id"`
	Restores  *int64  `json:"restores"`
	CreatedBy *int64  `json:"created_by"`
	Pairs     int     `json:"pairs"`
	Questions int     `json:"questions"`
}

type rollbackBody struct {
	Restored         int64        `json:"restored"`
	Backup           snapshotBody `json:"backup"`
	TagsAdded        int          `json:"tags_added"`
	TagsRemoved      int          `json:"tags_removed"`
	QuestionsChanged int          `json:"questions_changed"`
}

// pair is a stored (question, tag) classification pair.
type pair struct{ QuestionID, TagID int64 }

// storedPairs is the whole stored classification, ordered.
func storedPairs() []pair {
	out := []pair{}
	ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(`SELECT question_id, tag_id FROM bank.question_tags
		ORDER BY question_id, tag_id`).Scan(&out).Error).To(Succeed())
	return out
}

// snapshotPairs is what a stored snapshot holds, ordered.
func snapshotPairs(id int64) []pair {
	out := []pair{}
	ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(`SELECT p.question_id, p.tag_id
		FROM bank.classification_snapshots s, unnest(s.question_ids, s.tag_ids) AS p(question_id, tag_id)
		WHERE s.id = ? ORDER BY 1, 2`, id).Scan(&out).Error).To(Succeed())
	return out
}

// missingFrom counts the pairs of a that b lacks.
func missingFrom(a, b []pair) int {
	in := map[pair]bool{}
	for _, p := range b {
		in[p] = true
	}
	n := 0
	for _, p := range a {
		if !in[p] {
			n++
		}
	}
	return n
}

// snapshots lists the snapshots as an admin.
func snapshots(query string) ([]snapshotBody, *Response) {
	res := admin.Client(h).Get(api + "/admin/classification-snapshots" + query)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	out := []snapshotBody{}
	res.JSON(&out)
	return out, res
}

func rollback(id int64) rollbackBody {
	res := admin.Client(h).Post(path("/admin/classification-snapshots/%d/rollback", id), nil)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var out rollbackBody
	res.JSON(&out)
	return out
}

func storedVersion(id int64) int {
	var v int
	ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(`SELECT version FROM bank.questions WHERE id = ?`, id).
		Scan(&v).Error).To(Succeed())
	return v
}

var _ = Describe("Classification snapshots", func() {
	It("are taken before a classification run; a rollback restores exactly that classification, "+
		"snapshotting first and reindexing what changed", func() {
		disease, subject := "Snapitis "+MadeUpWord(), "Snapzine "+MadeUpWord()
		a := create(mcq("A child presents with " + disease + " and a rash"))
		b := create(mcq("Which is true of " + subject + "?"))
		manual := newTag("subject", unique("SnapManual"))
		Expect(h.App.DB.Conn(ctxBG).Exec(`INSERT INTO bank.question_tags VALUES (?, ?)`, a, manual).Error).
			To(Succeed())
		dis, subj := newTag("disease", disease), newTag("subject", subject)
		before := storedPairs()

		st := classify()
		Expect(st.Status).To(Equal("completed"))
		Expect(tagsOf(a)).To(ConsistOf(manual, dis))
		Expect(tagsOf(b)).To(ConsistOf(subj))

		list, res := snapshots("")
		Expect(res.Header.Get("X-Total-Count")).NotTo(BeEmpty())
		Expect(list).NotTo(BeEmpty())
		snap := list[0]
		Expect(snap.JobID).To(HaveValue(Equal(st.JobID)))
		Expect(snap.Kind).To(Equal("tags"))
		Expect(snap.Reason).To(Equal("classification"))
		Expect(snap.CreatedBy).To(HaveValue(Equal(mod.ID)))
		Expect(snap.Restores).To(BeNil())
		Expect(snap.Pairs).To(Equal(len(before)))
		Expect(snapshotPairs(snap.ID)).To(Equal(before))

		// Offline tooling changes the classification after the run.
		Expect(h.App.DB.Conn(ctxBG).Exec(`DELETE FROM bank.question_tags WHERE question_id = ? AND tag_id = ?`,
			a, manual).Error).To(Succeed())
		current := storedPairs()
		versionA, versionB := storedVersion(a), storedVersion(b)

		rb := rollback(snap.ID)
		Expect(storedPairs()).To(Equal(before))
		Expect(rb.Restored).To(Equal(snap.ID))
		Expect(rb.TagsAdded).To(Equal(missingFrom(before, current)))
		Expect(rb.TagsRemoved).To(Equal(missingFrom(current, before)))
		Expect(rb.TagsAdded).To(BeNumerically(">=", 1))   // the manual tag came back
		Expect(rb.TagsRemoved).To(BeNumerically(">=", 2)) // the run's tags on a and b went
		Expect(rb.Backup.Reason).To(Equal("rollback"))
		Expect(rb.Backup.Restores).To(HaveValue(Equal(snap.ID)))
		Expect(rb.Backup.CreatedBy).To(HaveValue(Equal(admin.ID)))
		Expect(rb.Backup.JobID).To(BeNil())
		Expect(snapshotPairs(rb.Backup.ID)).To(Equal(current))
		list, _ = snapshots("")
		Expect(list[0].ID).To(Equal(rb.Backup.ID))

		// Each question whose tags changed has a new version and is reindexed.
		Expect(storedVersion(a)).To(Equal(versionA + 1))
		Expect(storedVersion(b)).To(Equal(versionB + 1))
		for _, id := range []int64{a, b} {
			Eventually(func() []bank.QuestionChanged { return feed.of(id) }).WithTimeout(eventWait).
				Should(ContainElement(And(
					HaveField("Change", bank.QuestionUpdated), HaveField("Version", storedVersion(id)),
					HaveField("Live", true))))
		}

		// Rolling back the rollback returns to what it replaced.
		again := rollback(rb.Backup.ID)
		Expect(storedPairs()).To(Equal(current))
		Expect(again.Backup.Restores).To(HaveValue(Equal(rb.Backup.ID)))
		Expect(snapshotPairs(again.Backup.ID)).To(Equal(before))
	})

	It("leaves out questions and tags gone since the snapshot", func() {
		a := create(mcq(unique("Snap purged")))
		gone := newTag("disease", unique("SnapGone"))
		kept := newTag("subject", unique("SnapKept"))
		b := create(mcq(unique("Snap kept")))
		Expect(h.App.DB.Conn(ctxBG).Exec(`INSERT INTO bank.question_tags VALUES (?, ?), (?, ?), (?, ?)`,
			a, kept, b, gone, b, kept).Error).To(Succeed())
		classify()
		list, _ := snapshots("?limit=1")
		snap := list[0]
		Expect(snapshotPairs(snap.ID)).To(ContainElements(pair{a, kept}, pair{b, gone}, pair{b, kept}))

		Expect(mod.Client(h).Delete(path("/questions/%d", a))).To(HaveStatus(204))
		Expect(mod.Client(h).Delete(path("/questions/%d/permanent", a))).To(HaveStatus(204))
		Expect(h.App.DB.Conn(ctxBG).Exec(`DELETE FROM bank.tags WHERE id = ?`, gone).Error).To(Succeed())

		rollback(snap.ID)
		want := []pair{}
		for _, p := range snapshotPairs(snap.ID) {
			if p.QuestionID != a && p.TagID != gone {
				want = append(want, p)
			}
		}
		Expect(storedPairs()).To(Equal(want))
	})

	It("pages the list newest first", func() {
		classify()
		classify()
		all, res := snapshots("?limit=200")
		total, err := strconv.Atoi(res.Header.Get("X-Total-Count"))
		Expect(err).NotTo(HaveOccurred())
		Expect(total).To(BeNumerically(">=", 2))
		Expect(all[0].ID).To(BeNumerically(">", all[1].ID))
		second, _ := snapshots("?limit=1&offset=1")
		Expect(second).To(HaveLen(1))
		Expect(second[0].ID).To(Equal(all[1].ID))
	})

	It("is for administrators only; an unknown snapshot is 404 and changes nothing", func() {
		classify()
		list, _ := snapshots("?limit=1")
		before := storedPairs()
		var count int64
		countSnaps := func() int64 {
			Expect(h.App.DB.Conn(ctxBG).Raw(`SELECT count(*) FROM bank.classification_snapshots`).
				Scan(&count).Error).To(Succeed())
			return count
		}
		n := countSnaps()
		for _, u := range []*User{h.NewUser(auth.RoleUser), mod} {
			Expect(u.Client(h).Get(api + "/admin/classification-snapshots")).To(HaveError(403, "forbidden"))
			Expect(u.Client(h).Post(path("/admin/classification-snapshots/%d/rollback", list[0].ID), nil)).
				To(HaveError(403, "forbidden"))
		}
		Expect(h.Anon().Get(api + "/admin/classification-snapshots")).To(HaveError(401, "unauthenticated"))
		Expect(admin.Client(h).Post(path("/admin/classification-snapshots/%d/rollback", list[0].ID+1_000_000), nil)).
			To(HaveError(404, "not_found"))
		Expect(admin.Client(h).Post(api+"/admin/classification-snapshots/abc/rollback", nil)).To(HaveStatus(422))
		Expect(storedPairs()).To(Equal(before))
		Expect(countSnaps()).To(Equal(n))
	})
})
