package site_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// addresses gives every test its own client address, so the per-address
// limit of one never touches another.
var addresses atomic.Int64

func newAddress() string { return fmt.Sprintf("198.51.100.%d", addresses.Add(1)) }

// from is an anonymous caller behind the front proxy at address.
func from(x *Harness, address string) *Client { return x.Anon().With("X-Forwarded-For", address) }

type stored struct {
	ID        int64
	Name      string
	Email     string
	Type      string
	Message   string
	Read      bool
	Client    string
	MailedAt  *time.Time
	CreatedAt time.Time
}

// submissionsBy reads the stored submissions with this email.
func submissionsBy(x *Harness, email string) []stored {
	var rows []stored
	Expect(x.App.DB.Conn(ctxb).Raw(`SELECT * FROM site.contact_submissions WHERE email = ? ORDER BY id`, email).
		Scan(&rows).Error).To(Succeed())
	return rows
}

func message(email string) map[string]any {
	return map[string]any{"name": "  Ada Learner ", "email": email, "type": "Content",
		"message": "Question 12's explanation cites the wrong guideline.", "captcha_token": goodCaptcha}
}

var mailSeq atomic.Int64

func newEmail() string { return fmt.Sprintf("writer%d@example.test", mailSeq.Add(1)) }

var _ = Describe("The contact form", func() {
	It("stores a message from anyone, answers success and mails it to the admin once", func() {
		email, address := newEmail(), newAddress()
		res := from(h, address).Post("/api/v1/contact", message(email))
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(Equal(map[string]any{"success": true}))

		rows := submissionsBy(h, email)
		Expect(rows).To(HaveLen(1))
		Expect(rows[0]).To(MatchFields(IgnoreExtras, Fields{"Name": Equal("Ada Learner"), "Type": Equal("content"),
			"Message": HavePrefix("Question 12's"), "Read": BeFalse(), "Client": Equal(address)}))
		Expect(rows[0].CreatedAt).To(BeTemporally("~", time.Now(), time.Minute), "the database sets created_at")

		Eventually(func() []mail { return inbox.all() }, "10s", "50ms").Should(ContainElement(And(
			HaveField("To", ConsistOf(adminMail)),
			HaveField("Data", And(ContainSubstring("Reply-To: <"+email+">"),
				ContainSubstring("Subject: [Rounds contact] content from Ada Learner"),
				ContainSubstring("cites the wrong guideline"))))))
		Eventually(func() *time.Time { return submissionsBy(h, email)[0].MailedAt }, "10s", "50ms").ShouldNot(BeNil())
		Expect(captcha.seen).To(ContainElement(address), "the captcha check receives the client's address")
	})

	It("refuses blank, malformed and over-long fields by name, and stores nothing", func() {
		email := newEmail()
		for field, v := range map[string]any{"name": "   ", "message": "\n\t ", "type": " "} {
			body := message(email)
			body[field] = v
			res := from(h, newAddress()).Post("/api/v1/contact", body)
			Expect(res).To(HaveError(422, "invalid_request"), field)
			Expect(res.Body).To(ContainSubstring(field))
		}
		for _, bad := range []string{"not-an-address", "Ada <ada@example.test>", "a@", "@b"} {
			body := message(bad)
			res := from(h, newAddress()).Post("/api/v1/contact", body)
			Expect(res).To(HaveError(422, "invalid_request"), bad)
			Expect(res.Body).To(ContainSubstring("email"))
		}
		body := message(email)
		body["name"] = "Ada\r\nBcc: everyone@example.test"
		Expect(from(h, newAddress()).Post("/api/v1/contact", body)).To(HaveError(422, "invalid_request"))
		body = message(email)
		body["message"] = strings.Repeat("x", 5001)
		Expect(from(h, newAddress()).Post("/api/v1/contact", body)).To(HaveError(422, "invalid_request"))
		body = message(email)
		delete(body, "type")
		Expect(from(h, newAddress()).Post("/api/v1/contact", body)).To(HaveError(422, "invalid_request"))
		Expect(submissionsBy(h, email)).To(BeEmpty())
	})

	It("asks for a solved captcha when one is configured, and stores nothing otherwise", func() {
		email := newEmail()
		body := message(email)
		delete(body, "captcha_token")
		res := from(h, newAddress()).Post("/api/v1/contact", body)
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Body).To(ContainSubstring("captcha_token"))

		body["captcha_token"] = "a guess"
		Expect(from(h, newAddress()).Post("/api/v1/contact", body)).To(HaveError(400, "bad_request"))

		captcha.setBroken(true)
		DeferCleanup(captcha.setBroken, false)
		Expect(from(h, newAddress()).Post("/api/v1/contact", message(email))).To(HaveError(502, "upstream_failed"))
		Expect(submissionsBy(h, email)).To(BeEmpty())
	})

	It("needs no captcha where none is configured, and only stores the message when no admin address is set", func() {
		email := newEmail()
		body := message(email)
		delete(body, "captcha_token")
		Expect(from(plain, newAddress()).Post("/api/v1/contact", body)).To(HaveStatus(200))
		rows := submissionsBy(plain, email)
		Expect(rows).To(HaveLen(1))
		var jobs int64
		Expect(plain.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM river.river_job WHERE kind = 'site.mail_contact'`).
			Scan(&jobs).Error).To(Succeed())
		Expect(jobs).To(BeZero(), "nobody to mail")
	})

	It("limits each address to contact_per_hour messages", func() {
		address, other := newAddress(), newAddress()
		for i := range 5 {
			Expect(from(h, address).Post("/api/v1/contact", message(newEmail()))).To(HaveStatus(200), "message %d", i+1)
		}
		email := newEmail()
		res := from(h, address).Post("/api/v1/contact", message(email))
		Expect(res).To(HaveError(429, "rate_limited"))
		Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty())
		Expect(submissionsBy(h, email)).To(BeEmpty())
		Expect(from(h, other).Post("/api/v1/contact", message(newEmail()))).To(HaveStatus(200), "another address has its own limit")
	})
})

var _ = Describe("The contact inbox", func() {
	It("is the admin's: anonymous 401, learners and moderators 403", func() {
		Expect(h.Anon().Get("/api/v1/contact/submissions")).To(HaveError(401, "unauthenticated"))
		for _, role := range []auth.Role{auth.RoleUser, auth.RoleModerator} {
			u := h.NewUser(role)
			Expect(u.Client(h).Get("/api/v1/contact/submissions")).To(HaveError(403, "forbidden"), string(role))
			Expect(u.Client(h).Put("/api/v1/contact/submissions/1/read", nil)).To(HaveError(403, "forbidden"), string(role))
		}
	})

	It("lists messages newest first with the total, filters the unread, and marks one read", func() {
		admin := h.NewUser(auth.RoleAdmin).Client(h)
		first, second := newEmail(), newEmail()
		Expect(from(h, newAddress()).Post("/api/v1/contact", message(first))).To(HaveStatus(200))
		Expect(from(h, newAddress()).Post("/api/v1/contact", message(second))).To(HaveStatus(200))

		res := admin.Get("/api/v1/contact/submissions?limit=2")
		Expect(res).To(HaveStatus(200))
		list := res.List()
		Expect(list).To(HaveLen(2))
		Expect(list[0]).To(HaveKeyWithValue("email", second))
		Expect(list[1]).To(HaveKeyWithValue("email", first))
		Expect(list[0]).To(And(HaveKeyWithValue("name", "Ada Learner"), HaveKeyWithValue("type", "content"),
			HaveKeyWithValue("read", false), HaveKey("id"), HaveKey("message"), HaveKey("created_at")))
		Expect(list[0]).NotTo(HaveKey("client"), "the client address stays in the database")
		var total int64
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM site.contact_submissions`).Scan(&total).Error).To(Succeed())
		Expect(res.Header.Get("X-Total-Count")).To(Equal(fmt.Sprint(total)))

		id := int64(list[1].(map[string]any)["id"].(float64))
		read := admin.Put(fmt.Sprintf("/api/v1/contact/submissions/%d/read", id), nil)
		Expect(read).To(HaveStatus(200))
		Expect(read.Map()).To(Equal(map[string]any{"success": true}))
		Expect(submissionsBy(h, first)[0].Read).To(BeTrue())

		var unread []any
		for _, m := range admin.Get("/api/v1/contact/submissions?unread=true&limit=200").List() {
			unread = append(unread, m.(map[string]any)["email"])
		}
		Expect(unread).To(ContainElement(second))
		Expect(unread).NotTo(ContainElement(first))

		Expect(admin.Put("/api/v1/contact/submissions/999999999/read", nil)).To(HaveError(404, "not_found"))
	})
})
