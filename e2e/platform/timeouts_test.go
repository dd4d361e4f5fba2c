package platform_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
)

// The listener's bounds, on a server of its own with short ones. A request
// is written by hand on a raw connection, so a test decides when each byte
// arrives; the sleeps outlast a bound, and what is asserted is the answer.
var _ = Describe("The HTTP listener's bounds", Ordered, func() {
	const (
		readTimeout   = time.Second
		uploadTimeout = 3 * time.Second
		// Longer than any bound above: a connection the server has not
		// closed by then, it never will.
		patience = 20 * time.Second
	)
	var (
		x     *harness.Harness
		mod   *harness.User
		learn *harness.User
	)
	BeforeAll(func() {
		var err error
		x, err = harness.Start(harness.WithConfig(func(c *config.Config) {
			c.HTTP.ReadHeaderTimeout = readTimeout / 2
			c.HTTP.ReadTimeout = readTimeout
			c.HTTP.UploadTimeout = uploadTimeout
			c.HTTP.IdleTimeout = readTimeout
		}))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(x.Stop()).To(Succeed()) })
		mod, learn = x.NewUser(auth.RoleModerator), x.NewUser(auth.RoleUser)
	})

	dial := func() net.Conn {
		GinkgoHelper()
		conn, err := net.Dial("tcp", strings.TrimPrefix(x.BaseURL, "http://"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(conn.Close)
		Expect(conn.SetDeadline(time.Now().Add(patience))).To(Succeed())
		return conn
	}
	// upload is a request whose body arrives in two halves with a pause.
	upload := func(conn net.Conn, path, token, contentType string, body []byte, pause time.Duration, rest bool) {
		GinkgoHelper()
		head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: rounds\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\n"+
			"Content-Length: %d\r\n\r\n", path, token, contentType, len(body))
		half := len(body) / 2
		_, err := conn.Write(append([]byte(head), body[:half]...))
		Expect(err).NotTo(HaveOccurred())
		time.Sleep(pause)
		if rest {
			_, err = conn.Write(body[half:])
			Expect(err).NotTo(HaveOccurred())
		}
	}
	form := func(field, name string, content []byte) (string, []byte) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		part, err := w.CreateFormFile(field, name)
		Expect(err).NotTo(HaveOccurred())
		_, _ = part.Write(content)
		Expect(w.Close()).To(Succeed())
		return w.FormDataContentType(), buf.Bytes()
	}
	answer := func(conn net.Conn) *http.Response {
		GinkgoHelper()
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		Expect(err).NotTo(HaveOccurred(), "the server answered rather than cutting the connection")
		DeferCleanup(res.Body.Close)
		return res
	}
	// healthy writes raw (a health check, by hand) and reads its 200 whole,
	// giving the reader positioned after it.
	healthy := func(conn net.Conn, raw string) *bufio.Reader {
		GinkgoHelper()
		_, err := conn.Write([]byte(raw))
		Expect(err).NotTo(HaveOccurred())
		r := bufio.NewReader(conn)
		res, err := http.ReadResponse(r, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.StatusCode).To(Equal(http.StatusOK))
		_, _ = io.Copy(io.Discard, res.Body)
		return r
	}
	// endedByServer reads r to its end and checks the server closed it,
	// not this test's patience.
	endedByServer := func(r io.Reader) {
		GinkgoHelper()
		_, err := io.ReadAll(r)
		var ne net.Error
		Expect(errors.As(err, &ne) && ne.Timeout()).To(BeFalse(), "the server ended it: %v", err)
	}

	It("closes a kept-alive connection left idle", func() {
		r := healthy(dial(), "GET /api/v1/health HTTP/1.1\r\nHost: rounds\r\n\r\n")
		_, err := r.ReadByte()
		Expect(err).To(MatchError(io.EOF), "closed by the server, not by this test's patience")
	})

	It("cuts a request whose body stops arriving, even where the route never reads it", func() {
		r := healthy(dial(), "GET /api/v1/health HTTP/1.1\r\nHost: rounds\r\nContent-Length: 100\r\n\r\n{\"a\":")
		// The server waits for the rest of the body (to reuse the
		// connection) only as long as a request may take to arrive.
		endedByServer(r)
	})

	It("reads an upload for longer than a request: a PDF arriving slowly is answered", func() {
		conn := dial()
		ct, body := form("file", "slow.pdf", bytes.Repeat([]byte("not a pdf at all "), 64))
		upload(conn, "/api/v1/documents/upload", mod.Token, ct, body, readTimeout+readTimeout/2, true)
		res := answer(conn)
		Expect(res.StatusCode).To(Equal(http.StatusBadRequest), "read whole and judged by its bytes")
		b, _ := io.ReadAll(res.Body)
		Expect(string(b)).To(ContainSubstring("PDF"))
	})

	It("reads a raw upload (a recording) for longer than a request too", func() {
		conn := dial()
		ct, body := form("file", "a.wav", bytes.Repeat([]byte("x"), 2048))
		upload(conn, "/api/v1/stt/transcribe", learn.Token, ct, body, readTimeout+readTimeout/2, true)
		res := answer(conn)
		Expect(res.StatusCode).To(Equal(http.StatusUnprocessableEntity), "read whole: not audio")
	})

	It("cuts an upload that stops arriving for longer than the upload bound", func() {
		conn := dial()
		ct, body := form("file", "stalled.pdf", bytes.Repeat([]byte("y"), 4096))
		upload(conn, "/api/v1/documents/upload", mod.Token, ct, body, 0, false)
		endedByServer(conn)
	})
})
