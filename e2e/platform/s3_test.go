package platform_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/pdffixtures"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/storage"
)

// fakeS3 is an in-process S3-compatible server with one bucket.
type fakeS3 struct {
	srv     *httptest.Server
	backend *s3mem.Backend
}

const s3Bucket = "rounds-test"

func startFakeS3() *fakeS3 {
	backend := s3mem.New()
	Expect(backend.CreateBucket(s3Bucket)).To(Succeed())
	f := &fakeS3{backend: backend, srv: httptest.NewServer(gofakes3.New(backend).Server())}
	DeferCleanup(f.srv.Close)
	return f
}

// url is the storage.url a deployment on S3 (or MinIO, R2, ...) uses:
// gocloud.dev's s3blob, path-style addressing at a custom endpoint.
func (f *fakeS3) url() string {
	return fmt.Sprintf("s3://%s?endpoint=%s&region=us-east-1&use_path_style=true&anonymous=true", s3Bucket, f.srv.URL)
}

func (f *fakeS3) keys(prefix string) []string {
	list, err := f.backend.ListBucket(s3Bucket, &gofakes3.Prefix{Prefix: prefix, HasPrefix: true}, gofakes3.ListBucketPage{})
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, c := range list.Contents {
		out = append(out, c.Key)
	}
	return out
}

var _ = Describe("S3 storage through gocloud.dev's s3blob", func() {
	ctx := context.Background()

	It("stores, serves, sizes and deletes objects; a missing key is not found; an unreachable bucket is 503", func() {
		f := startFakeS3()
		st, err := storage.Open(ctx, f.url())
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(st.Close)

		body := bytes.Repeat([]byte("rounds "), 200_000) // 1.4 MB: more than one upload part buffer
		n, err := st.Put(ctx, "figures/a/b.png", bytes.NewReader(body), "image/png")
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(int64(len(body))))
		Expect(f.keys("figures/")).To(ConsistOf("figures/a/b.png"))

		r, err := st.Open(ctx, "figures/a/b.png")
		Expect(err).NotTo(HaveOccurred())
		got, err := io.ReadAll(r)
		Expect(r.Close()).To(Succeed())
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(body))
		Expect(st.Size(ctx, "figures/a/b.png")).To(Equal(int64(len(body))))

		_, err = st.Open(ctx, "figures/none.png")
		Expect(err).To(MatchError(storage.ErrNotFound))
		_, err = st.Size(ctx, "figures/none.png")
		Expect(err).To(MatchError(storage.ErrNotFound))

		Expect(st.Delete(ctx, "figures/a/b.png")).To(Succeed())
		Expect(f.keys("figures/")).To(BeEmpty())
		Expect(st.Delete(ctx, "figures/a/b.png")).To(Succeed(), "deleting twice is harmless (deletes are retried)")

		// A source that fails mid-stream is the caller's error, not the bucket's, and leaves nothing.
		_, err = st.Put(ctx, "figures/half.png", io.MultiReader(bytes.NewReader(body[:1000]), failing{}), "image/png")
		Expect(err).To(MatchError(errSourceBroke))
		Expect(f.keys("figures/")).To(BeEmpty(), "nothing half written")

		f.srv.Close() // the bucket is unreachable
		_, err = st.Put(ctx, "figures/c.png", bytes.NewReader(body[:100]), "image/png")
		var ae *apperr.Error
		Expect(errors.As(err, &ae)).To(BeTrue(), "got %v", err)
		Expect(ae.Code).To(Equal(apperr.Unavailable))
		Expect(ae.RetryAfter).To(BeNumerically(">", 0))
	})

	It("serves a whole deployment: an upload lands in the bucket, and with the bucket gone the upload is a clean 503", func() {
		f := startFakeS3()
		s3h, err := harness.Start(harness.WithConfig(func(c *config.Config) { c.Storage.URL = f.url() }))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s3h.Stop)

		mod := s3h.NewUser(auth.RoleModerator)
		docs := func() int {
			var n int
			Expect(s3h.App.DB.Conn(ctx).Raw(`SELECT count(*) FROM drafts.documents WHERE user_id = ?`, mod.ID).Scan(&n).Error).To(Succeed())
			return n
		}
		Expect(uploadPDF(s3h, mod)).To(harness.HaveStatus(http.StatusCreated))
		Expect(docs()).To(Equal(1))
		stored := f.keys("")
		Expect(stored).To(HaveLen(1))
		Expect(stored[0]).To(HavePrefix("documents/"))
		obj, err := f.backend.HeadObject(s3Bucket, stored[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(obj.Size).To(Equal(int64(len(pdffixtures.QuestionPaper()))))

		f.srv.Close()
		res := uploadPDF(s3h, mod)
		Expect(res).To(harness.HaveError(http.StatusServiceUnavailable, "unavailable"))
		Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty())
		Expect(docs()).To(Equal(1), "no row for the failed upload")
		Expect(f.keys("")).To(Equal(stored), "nothing half written")
	})
})

var errSourceBroke = errors.New("the client's stream broke")

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errSourceBroke }

func uploadPDF(h *harness.Harness, u *harness.User) *harness.Response {
	body, contentType := harness.Form("file", "paper.pdf", pdffixtures.QuestionPaper(), nil)
	return u.Client(h).With("Content-Type", contentType).Post("/api/v1/documents/upload", body)
}
