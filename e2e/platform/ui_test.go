package platform_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/jobs"
)

var _ = Describe("River's job UI at /admin/jobs", func() {
	ctx := context.Background()

	// browser is a caller as a signed-in person's browser is: no header,
	// the media cookie the sign-in set for the job UI's path.
	browser := func(u *harness.User) *harness.Client {
		for _, c := range u.Cookies {
			if c.Name == httpapi.MediaCookieName(h.Config.Service.Name) && c.Path == httpapi.JobsUIPath {
				return h.Anon().With("Cookie", c.Name+"="+c.Value)
			}
		}
		Fail("the sign-in set no media cookie for " + httpapi.JobsUIPath)
		return nil
	}
	riverID := func(id uuid.UUID) string {
		var n int64
		Expect(h.App.DB.Conn(ctx).Raw(`SELECT job_id FROM platform.job_progress WHERE public_id = ?`, id).
			Scan(&n).Error).To(Succeed())
		return strconv.FormatInt(n, 10)
	}
	status := func(id uuid.UUID) jobs.Status {
		rec, err := h.App.Queue.Get(ctx, id)
		Expect(err).NotTo(HaveOccurred())
		return rec.Status
	}
	// sameSite and crossSite are the headers a browser sends with a request
	// from the UI's own page, and from another site's.
	sameSite := func(c *harness.Client) *harness.Client {
		return c.With("Origin", h.BaseURL).With("Sec-Fetch-Site", "same-origin")
	}
	crossSite := func(c *harness.Client) *harness.Client {
		return c.With("Origin", "https://elsewhere.example").With("Sec-Fetch-Site", "cross-site")
	}

	It("opens for an admin's browser with the cookie the sign-in set, and shows the jobs", func() {
		admin := h.NewUser(auth.RoleAdmin)
		page := browser(admin).With("Accept", "text/html").Get("/admin/jobs/")
		Expect(page).To(harness.HaveStatus(http.StatusOK))
		Expect(page.Header.Get("Content-Type")).To(HavePrefix("text/html"))
		Expect(string(page.Body)).To(ContainSubstring(`"/admin/jobs/api"`), "River's UI served under our path")
		Expect(page.Header.Get("X-Frame-Options")).To(Equal("DENY"))
		bare := browser(admin).Get("/admin/jobs")
		Expect(bare).To(harness.HaveStatus(http.StatusMovedPermanently))
		Expect(bare.Header.Get("Location")).To(Equal("/admin/jobs/"))

		owner := int64(11)
		id, err := h.App.Queue.Enqueue(ctx, &owner, stepsPayload{Steps: 1})
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() jobs.Status { return status(id) }, "10s", "50ms").Should(Equal(jobs.Completed))
		res := browser(admin).Get("/admin/jobs/api/jobs/" + riverID(id))
		Expect(res).To(harness.HaveStatus(http.StatusOK))
		Expect(res.Map()).To(And(HaveKeyWithValue("kind", "test.steps"), HaveKeyWithValue("state", "completed"),
			HaveKeyWithValue("args", MatchJSON(`{"steps": 1, "block": false}`))))
		// An admin's bearer token opens it too, as it does /uploads.
		list := admin.Client(h).Get("/admin/jobs/api/jobs?state=completed&kinds=test.steps")
		Expect(list).To(harness.HaveStatus(http.StatusOK))
		Expect(string(list.Body)).To(ContainSubstring(`"id":` + riverID(id)))
	})

	It("is refused to everyone else: 401 without a session, 403 to learners and moderators, cookie or token", func() {
		for _, path := range []string{"/admin/jobs/", "/admin/jobs/api/jobs", "/admin/jobs/api/queues"} {
			Expect(h.Anon().Get(path)).To(harness.HaveError(http.StatusUnauthorized, "unauthenticated"), path)
			Expect(h.Anon().With("Cookie", httpapi.MediaCookieName(h.Config.Service.Name)+"=forged").Get(path)).
				To(harness.HaveError(http.StatusUnauthorized, "unauthenticated"), path)
		}
		id, err := h.App.Queue.Enqueue(ctx, nil, stepsPayload{Steps: 1, Block: true})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = h.App.Queue.Cancel(ctx, id) })
		Eventually(func() jobs.Status { return status(id) }, "10s", "50ms").Should(Equal(jobs.Running))
		cancel := map[string]any{"ids": []string{riverID(id)}}
		for _, role := range []auth.Role{auth.RoleUser, auth.RoleModerator} {
			u := h.NewUser(role)
			Expect(browser(u).Get("/admin/jobs/")).To(harness.HaveError(http.StatusForbidden, "forbidden"), role)
			Expect(u.Client(h).Get("/admin/jobs/api/jobs")).To(harness.HaveError(http.StatusForbidden, "forbidden"), role)
			Expect(sameSite(browser(u)).Post("/admin/jobs/api/jobs/cancel", cancel)).
				To(harness.HaveError(http.StatusForbidden, "forbidden"), role)
		}
		Expect(status(id)).To(Equal(jobs.Running), "nobody but an admin cancelled it")

		// An admin demoted is refused at once: the role is read, not carried.
		admin := h.NewUser(auth.RoleAdmin)
		Expect(browser(admin).Get("/admin/jobs/api/queues")).To(harness.HaveStatus(http.StatusOK))
		Expect(h.Root().Client(h).Put(fmt.Sprintf("/api/v1/admin/users/%d/role", admin.ID), map[string]any{"role": "user"})).
			To(harness.HaveStatus(http.StatusOK))
		Expect(browser(admin).Get("/admin/jobs/api/queues")).To(harness.HaveError(http.StatusForbidden, "forbidden"))
	})

	It("cancels a job for an admin, which its owner then reads as cancelled; another site's page cannot", func() {
		admin := h.NewUser(auth.RoleAdmin)
		id, err := h.App.Queue.Enqueue(ctx, nil, stepsPayload{Steps: 1, Block: true})
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() jobs.Status { return status(id) }, "10s", "50ms").Should(Equal(jobs.Running))
		cancel := map[string]any{"ids": []string{riverID(id)}}

		Expect(crossSite(browser(admin)).Post("/admin/jobs/api/jobs/cancel", cancel)).
			To(harness.HaveError(http.StatusForbidden, "forbidden"))
		Consistently(func() jobs.Status { return status(id) }, "300ms", "50ms").Should(Equal(jobs.Running))

		Expect(sameSite(browser(admin)).Post("/admin/jobs/api/jobs/cancel", cancel)).To(harness.HaveStatus(http.StatusOK))
		Expect(status(id)).To(Equal(jobs.Cancelled))
		Eventually(func() string {
			var state string
			Expect(h.App.DB.Conn(ctx).Raw(`SELECT state FROM river.river_job WHERE id = ?`, riverID(id)).Scan(&state).Error).To(Succeed())
			return state
		}, "10s", "50ms").Should(Equal("cancelled"), "its worker stopped")
		Expect(h.App.Queue.Cancel(ctx, id)).To(MatchError(jobs.ErrNotCancellable))
	})

	It("retries a finished job without doing its work twice (its work and result committed together)", func() {
		admin := h.NewUser(auth.RoleAdmin)
		before := onceRuns.Load()
		id, err := h.App.Queue.Enqueue(ctx, nil, oncePayload{})
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() jobs.Status { return status(id) }, "10s", "50ms").Should(Equal(jobs.Completed))
		rows := func() int {
			var n int
			Expect(h.App.DB.Conn(ctx).Raw(`SELECT count(*) FROM public.test_once WHERE job = ?`, id).Scan(&n).Error).To(Succeed())
			return n
		}
		Expect(rows()).To(Equal(1))

		// What a worker dying after the commit, before River recorded the
		// job done, leads to: the job runs again.
		Expect(sameSite(browser(admin)).Post("/admin/jobs/api/jobs/retry", map[string]any{"ids": []string{riverID(id)}})).
			To(harness.HaveStatus(http.StatusOK))
		Eventually(func() int {
			var attempt int
			Expect(h.App.DB.Conn(ctx).Raw(`SELECT attempt FROM river.river_job WHERE id = ? AND state = 'completed'`, riverID(id)).
				Scan(&attempt).Error).To(Succeed())
			return attempt
		}, "10s", "50ms").Should(Equal(2))
		Expect(rows()).To(Equal(1), "nothing stored twice")
		Expect(onceRuns.Load()-before).To(BeEquivalentTo(1), "the handler was not called again")
		rec, err := h.App.Queue.Get(ctx, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.Status).To(Equal(jobs.Completed))
		Expect(string(rec.Result)).To(MatchJSON(fmt.Sprintf(`{"stored": %q}`, id)))
	})
})
