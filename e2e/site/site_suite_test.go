// Package site_test drives the contact form, its inbox and the public
// counts on the real app: mail goes to an in-process SMTP server and the
// captcha to a local verify endpoint, both speaking their real protocols.
package site_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/config"
)

func TestSite(t *testing.T) { RunSuite(t, "Site") }

const (
	adminMail   = "team@rounds.test"
	goodCaptcha = "solved-captcha"
)

var (
	h        *Harness // captcha on, mail through SMTP, counts never cached
	plain    *Harness // the defaults: no captcha, no admin address, counts cached
	inbox    = &mailbox{}
	smtpAddr string // the mail server h sends through
	captcha  *captchaServer
	ctxb     = context.Background()
)

var _ = Suite(&h, nil, BeforeApps(func() {
	smtpAddr = startSMTP(inbox)
	captcha = startCaptcha()
	DeferCleanup(captcha.Close)
}), WithConfig(func(c *config.Config) {
	c.Set("site.admin_email", adminMail)
	c.Set("site.smtp_url", "smtp://"+smtpAddr)
	c.Set("site.captcha_verify_url", captcha.URL)
	c.Set("site.captcha_secret", "captcha-secret")
	c.Set("site.stats_ttl", time.Duration(0))
}), WithApp(&plain))

// mail is one message the SMTP server accepted.
type mail struct {
	From string
	To   []string
	Data string
}

type mailbox struct {
	mu    sync.Mutex
	mails []mail
}

func (b *mailbox) all() []mail {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]mail(nil), b.mails...)
}

// startSMTP serves SMTP on loopback, keeping what it receives in box.
func startSMTP(box *mailbox) string {
	s := smtp.NewServer(backend{box})
	s.Domain = "localhost"
	s.AllowInsecureAuth = true
	s.ReadTimeout, s.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	go func() { _ = s.Serve(ln) }()
	DeferCleanup(s.Close)
	return ln.Addr().String()
}

type backend struct{ box *mailbox }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{box: b.box}, nil }

type session struct {
	box *mailbox
	cur mail
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error { s.cur.From = from; return nil }
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.cur.To = append(s.cur.To, to)
	return nil
}
func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.Data = string(b)
	s.box.mu.Lock()
	s.box.mails = append(s.box.mails, s.cur)
	s.box.mu.Unlock()
	return nil
}
func (s *session) Reset()        { s.cur = mail{} }
func (s *session) Logout() error { return nil }

// captchaServer is a verify endpoint in the hCaptcha/Turnstile protocol:
// goodCaptcha passes; broken makes it answer 500.
type captchaServer struct {
	*httptest.Server
	mu     sync.Mutex
	broken bool
	seen   []string // the remoteip of each check
}

func startCaptcha() *captchaServer {
	c := &captchaServer{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.broken {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		if err := r.ParseForm(); err != nil || r.PostForm.Get("secret") != "captcha-secret" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		c.seen = append(c.seen, r.PostForm.Get("remoteip"))
		w.Header().Set("Content-Type", "application/json")
		if r.PostForm.Get("response") == goodCaptcha {
			_, _ = w.Write([]byte(`{"success": true}`))
			return
		}
		_, _ = w.Write([]byte(`{"success": false, "error-codes": ["invalid-input-response"]}`))
	}))
	return c
}

func (c *captchaServer) setBroken(b bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.broken = b
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
