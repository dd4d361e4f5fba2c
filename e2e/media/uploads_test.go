package media_test

import (
	"bytes"
	"fmt"
	"image"
	_ "image/png"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"golang.org/x/image/webp"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/media"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// figure uploads a w×h PNG to a fresh article of the given status and
// returns the article and the asset.
func figure(status string, w, hgt int) (int64, map[string]any) {
	id := article(status)
	res := upload(mod, id, pngOf(w, hgt), "f.png", fields("intro", "A figure"))
	ExpectWithOffset(1, res).To(HaveStatus(201))
	return id, res.Map()["asset"].(map[string]any)
}

func stored(key string) bool {
	_, err := h.App.Storage.Size(ctxb, key)
	return err == nil
}

var _ = Describe("GET /uploads", func() {
	It("serves a published figure to any signed-in reader, privately and never stored by caches", func() {
		_, a := figure("published", 20, 10)
		learner := h.NewUser(auth.RoleUser)
		res := learner.Client(h).Get(a["url"].(string))
		Expect(res).To(HaveStatus(200))
		Expect(res.Header.Get("Content-Type")).To(Equal("image/png"))
		Expect(res.Header.Get("Cache-Control")).To(Equal("private, no-store"))
		Expect(res.Body).To(Equal(pngOf(20, 10)))
		Expect(h.Anon().Get(a["url"].(string))).To(HaveError(401, "unauthenticated"))
	})

	It("opens with the media cookie set at sign-in, which native tags send", func() {
		_, a := figure("published", 8, 8)
		learner := h.NewUser(auth.RoleUser)
		name := httpapi.MediaCookieName(h.Config.Service.Name)
		var cookie string
		for _, c := range learner.Cookies {
			if c.Name == name {
				cookie = c.Name + "=" + c.Value
			}
		}
		Expect(cookie).NotTo(BeEmpty())
		Expect(h.Anon().With("Cookie", cookie).Get(a["url"].(string))).To(HaveStatus(200))
		Expect(h.Anon().With("Cookie", name+"=forged").Get(a["url"].(string))).To(HaveError(401, "unauthenticated"))
	})

	It("hides a draft's figure from a learner and shows it to its editors", func() {
		_, a := figure("draft", 8, 8)
		Expect(h.NewUser(auth.RoleUser).Client(h).Get(a["url"].(string))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get(a["url"].(string))).To(HaveStatus(200))
	})

	It("makes a 256 and a 640 WebP once, never upscaled, with long private caching", func() {
		_, a := figure("published", 700, 350)
		key := a["path"].(string)
		learner := h.NewUser(auth.RoleUser)
		for _, w := range []int{256, 640} {
			res := learner.Client(h).Get(fmt.Sprintf("%s?w=%d", a["url"], w))
			Expect(res).To(HaveStatus(200))
			Expect(res.Header.Get("Content-Type")).To(Equal("image/webp"))
			Expect(res.Header.Get("Cache-Control")).To(Equal("private, max-age=604800, immutable"))
			cfg, err := webp.DecodeConfig(bytes.NewReader(res.Body))
			Expect(err).NotTo(HaveOccurred())
			Expect(cfg.Width).To(Equal(w))
			Expect(cfg.Height).To(Equal(350 * w / 700))
			Expect(stored(fmt.Sprintf("thumbs/%d/%s", w, key))).To(BeTrue())
		}
		_, small := figure("published", 100, 50)
		res := learner.Client(h).Get(small["url"].(string) + "?w=640")
		Expect(res).To(HaveStatus(200))
		cfg, _, err := image.DecodeConfig(bytes.NewReader(res.Body))
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.Width).To(Equal(100), "never upscaled")
		Expect(learner.Client(h).Get("/uploads/thumbs/640/" + small["path"].(string))).To(HaveError(404, "not_found"))
	})

	DescribeTable("refuses bad widths and paths",
		func(suffix string, status int, code string) {
			_, a := figure("published", 8, 8)
			raw := strings.Replace(suffix, "KEY", a["path"].(string), 1)
			Expect(mod.Client(h).Get("/uploads/" + raw)).To(HaveError(status, code))
		},
		Entry("w=300", "KEY?w=300", 422, "invalid_request"),
		Entry("w=0", "KEY?w=0", 422, "invalid_request"),
		Entry("w=abc", "KEY?w=abc", 422, "invalid_request"),
		Entry("dot-dot", "media/../KEY", 422, "invalid_request"),
		Entry("encoded dot-dot", "media/%2e%2e/KEY", 422, "invalid_request"),
		Entry("encoded slash", "media%2FKEY", 422, "invalid_request"),
		Entry("absolute key", "/etc/passwd", 422, "invalid_request"),
		Entry("backslash", "media%5c..%5cKEY", 422, "invalid_request"),
		Entry("missing file", "media/none.png", 404, "not_found"),
	)

	It("answers ranges and conditional requests on clips", func() {
		id := article("published")
		clip := append(mp4("vide"), bytes.Repeat([]byte{0}, 100_000)...)
		res := upload(mod, id, clip, "c.mp4", fields("intro", "Loop"))
		Expect(res).To(HaveStatus(201))
		url := res.Map()["asset"].(map[string]any)["url"].(string)
		part := mod.Client(h).With("Range", "bytes=0-99").Get(url)
		Expect(part).To(HaveStatus(http.StatusPartialContent))
		Expect(part.Body).To(Equal(clip[:100]))
		Expect(part.Header.Get("Content-Range")).To(Equal(fmt.Sprintf("bytes 0-99/%d", len(clip))))
		tag := part.Header.Get("ETag")
		Expect(tag).NotTo(BeEmpty())
		Expect(mod.Client(h).With("If-None-Match", tag).Get(url)).To(HaveStatus(http.StatusNotModified))
		Expect(mod.Client(h).Get(url + "?w=256")).To(HaveError(422, "invalid_request"))
	})

	It("opens a question's picture inside the caller's own attempt, answer-side files only once it shows answers", func() {
		key, stem := "figures/answer-side-ecg.png", "figures/stem-ecg.png"
		for _, k := range []string{key, stem} {
			_, err := h.App.Storage.Put(ctxb, k, bytes.NewReader(pngOf(8, 8)), "image/png")
			Expect(err).NotTo(HaveOccurred())
		}
		qres := mod.Client(h).Post(api+"/questions/create", q{"question_text": "Which rhythm?", "question_type": "mcq",
			"options": []string{"AF", "Flutter"}, "correct_answer": "AF", "explanation_image_path": key, "image_path": stem})
		Expect(qres).To(HaveStatus(201))
		quiz := mod.Client(h).Post(api+"/questions/from-bank", q{"title": "Media quiz", "question_ids": []any{qres.Map()["id"]},
			"time_limit_minutes": 10})
		Expect(quiz).To(HaveStatus(201))
		quizID := int64(quiz.Map()["id"].(float64))
		Expect(mod.Client(h).Patch(path("/quizzes/%d/publish?published=true", quizID), nil)).To(HaveStatus(200))

		u, other := h.NewUser(auth.RoleUser), h.NewUser(auth.RoleUser)
		started := u.Client(h).Post(path("/attempts/start?quiz_id=%d", quizID), nil)
		Expect(started).To(HaveStatus(200))
		attemptID := int64(started.Map()["id"].(float64))
		url := fmt.Sprintf("/uploads/%s?attempt_id=%d", key, attemptID)

		Expect(u.Client(h).Get("/uploads/" + key)).To(HaveError(403, "forbidden"))
		Expect(u.Client(h).Get(url)).To(HaveError(403, "forbidden"), "a running timed attempt opens no answer-side file")
		stemURL := fmt.Sprintf("/uploads/%s?attempt_id=%d", stem, attemptID)
		Expect(u.Client(h).Get(stemURL)).To(HaveStatus(200), "the question's own picture shows while it is sat")
		Expect(other.Client(h).Get(stemURL)).To(HaveError(403, "forbidden"), "to the one sitting it")
		Expect(u.Client(h).Post(path("/attempts/%d/submit", attemptID), nil)).To(HaveStatus(200))
		Expect(u.Client(h).Get(url)).To(HaveStatus(200))
		Expect(u.Client(h).Get(url + "&w=256")).To(HaveStatus(200))
		Expect(other.Client(h).Get(url)).To(HaveError(403, "forbidden"), "only the caller's own attempt")
		Expect(mod.Client(h).Get("/uploads/"+key)).To(HaveStatus(200), "moderators edit questions")
	})
})

var _ = Describe("Bin, restore and purge", func() {
	It("bins from every article, restores at the end of each section, and purges after 30 days", func() {
		first, a := figure("published", 8, 8)
		key, assetID := a["path"].(string), int64(a["id"].(float64))
		second := article("published")
		Expect(mod.Client(h).Post(path("/articles/%d/figures/existing", second), q{"asset_id": assetID, "section_id": "findings"})).
			To(HaveStatus(201))
		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Get(a["url"].(string) + "?w=256")).To(HaveStatus(200))

		// A grant holder may only unlink, not bin.
		holder := h.NewUser(auth.RoleUser)
		Expect(mod.Client(h).Post(path("/access/%d/grants", holder.ID), q{"kind": "article", "target_id": second})).To(HaveStatus(201))
		Expect(holder.Client(h).Delete(path("/media/%d", assetID))).To(HaveError(403, "forbidden"))
		Expect(holder.Client(h).Post(path("/media/%d/unlink", assetID), q{"article_id": first})).To(HaveError(403, "forbidden"))
		Expect(holder.Client(h).Post(path("/media/%d/unlink", assetID), q{"article_id": second})).To(HaveStatus(204))
		Expect(markdown(second, "findings")).NotTo(ContainSubstring(key))
		Expect(mod.Client(h).Post(path("/articles/%d/figures/existing", second), q{"asset_id": assetID, "section_id": "findings"})).
			To(HaveStatus(201))

		binned := mod.Client(h).Delete(path("/media/%d", assetID))
		Expect(binned).To(HaveStatus(200))
		Expect(binned.Map()["deleted_at"]).NotTo(BeNil())
		Expect(markdown(first, "intro")).To(Equal("Opening text."))
		Expect(markdown(second, "findings")).To(Equal("What is seen."))
		Expect(scalar[int64](`SELECT count(*) FROM library.figures WHERE path = ?`, key)).To(BeZero())
		Expect(learner.Client(h).Get(a["url"].(string))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Get(a["url"].(string))).To(HaveStatus(200))
		Expect(mod.Client(h).Delete(path("/media/%d", assetID))).To(HaveError(409, "conflict"))

		// The section gained text meanwhile; the figure returns at its end.
		Expect(mod.Client(h).Patch(path("/articles/%d", first), q{"sections": []q{
			{"id": "intro", "heading": "Intro", "markdown": "Opening text.\n\nMore text."},
			{"id": "findings", "heading": "Findings", "markdown": "What is seen."}}})).To(HaveStatus(200))
		Expect(mod.Client(h).Post(path("/media/%d/restore", assetID), nil)).To(HaveStatus(200))
		Expect(markdown(first, "intro")).To(Equal("Opening text.\n\nMore text.\n\n![A figure](/uploads/" + key + ")"))
		Expect(markdown(second, "findings")).To(HaveSuffix("(/uploads/" + key + ")"))
		Expect(learner.Client(h).Get(a["url"].(string))).To(HaveStatus(200))
		Expect(mod.Client(h).Post(path("/media/%d/restore", assetID), nil)).To(HaveError(400, "bad_request"))

		// Purge: the test's clock decides what "30 days" means.
		Expect(mod.Client(h).Delete(path("/media/%d", assetID))).To(HaveStatus(200))
		m := app.Lookup[*media.Module](h.App)
		Expect(m.PurgeTrashed(ctxb, time.Now().Add(29*24*time.Hour))).To(Succeed())
		Expect(stored(key)).To(BeTrue(), "29 days in the bin: kept")
		Expect(m.PurgeTrashed(ctxb, time.Now().Add(31*24*time.Hour))).To(Succeed())
		Expect(stored(key)).To(BeFalse())
		Expect(stored("thumbs/256/" + key)).To(BeFalse())
		Expect(mod.Client(h).Get(a["url"].(string))).To(HaveError(404, "not_found"))
		Expect(mod.Client(h).Post(path("/media/%d/restore", assetID), nil)).To(HaveError(404, "not_found"))
	})
})
