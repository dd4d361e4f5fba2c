package fault_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/platform/auth"
)

func uploadPaper(u *User) *Response {
	body, contentType := Form("file", "paper.pdf", pdffixtures.QuestionPaper(), nil)
	return u.Client(h).With("Content-Type", contentType).Post("/api/v1/documents/upload", body)
}

var _ = Describe("Storage unavailable", Serial, func() {
	It("answers 503 with the envelope and writes nothing, then works again once storage is back", func() {
		dir := strings.TrimPrefix(h.Config.Storage.URL, "file://")
		uploader := h.NewUser(auth.RoleModerator)
		docs := func() int { return scalar[int]("SELECT count(*) FROM drafts.documents WHERE user_id = ?", uploader.ID) }
		files := func() int {
			m, err := filepath.Glob(filepath.Join(dir, "documents", "*"))
			Expect(err).NotTo(HaveOccurred())
			return len(m)
		}
		before := files()

		// The bucket's directory becomes a plain file: every write fails,
		// as a full, read-only or unmounted volume would make it.
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		Expect(os.Rename(dir, dir+".away")).To(Succeed())
		Expect(os.WriteFile(dir, nil, 0o600)).To(Succeed())
		restore := func() {
			if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
				Expect(os.Remove(dir)).To(Succeed())
				Expect(os.Rename(dir+".away", dir)).To(Succeed())
			}
		}
		DeferCleanup(restore)

		res := uploadPaper(uploader)
		Expect(res).To(HaveError(http.StatusServiceUnavailable, "unavailable"))
		Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty())
		Expect(docs()).To(BeZero())

		restore()
		Expect(files()).To(Equal(before), "no file half written")
		Expect(uploadPaper(uploader)).To(HaveStatus(http.StatusCreated))
		Expect(docs()).To(Equal(1))
		Expect(files()).To(Equal(before + 1))
	})
})
