package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/roundsedu/rounds/platform/db"
)

// WrittenCookieName is the cookie (<service name>_written) that carries
// where the primary's WAL stood after the caller's last write, so that a
// read replica answers the caller only once it shows that write, whichever
// serving process the next request reaches. It opens nothing: a forged
// value only sends its sender's own reads to the primary.
func WrittenCookieName(serviceName string) string { return serviceName + "_written" }

// readYourWrites puts the request's db.Session on its context (whether it
// only reads, and the caller's last write from the cookie) and, on a
// successful answer to a request that wrote, sets the cookie to where the
// primary's WAL stands once the write is committed. Without a replica it
// does nothing.
func readYourWrites(d *db.DB, cookie string, maxLag time.Duration, alwaysSecure bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		if d == nil || !d.HasReplica() {
			c.Next()
			return
		}
		reads := c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead
		var seen db.LSN
		if ck, err := c.Request.Cookie(cookie); err == nil {
			seen, _ = db.ParseLSN(ck.Value) // unreadable: as if none
		}
		ctx, s := db.WithSession(c.Request.Context(), reads, seen)
		c.Request = c.Request.WithContext(ctx)
		secure := alwaysSecure || c.Request.TLS != nil || strings.EqualFold(c.GetHeader("X-Forwarded-Proto"), "https")
		c.Writer = &writtenMarker{ResponseWriter: c.Writer, mark: func(status int) {
			if status >= 400 || (reads && !s.Wrote()) {
				return
			}
			// The handler has returned, so its transactions have committed.
			pos, err := d.WritePosition(ctx)
			if err != nil {
				return // the caller's next reads may miss this write for as long as the replica lags
			}
			http.SetCookie(c.Writer, &http.Cookie{Name: cookie, Value: pos.String(), Path: "/",
				// Past read_max_lag a replica that answers at all shows the write.
				MaxAge: int((maxLag + 5*time.Second) / time.Second), HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secure})
		}}
		c.Next()
	}
}

// writtenMarker calls mark with the status once, before the headers go out.
type writtenMarker struct {
	gin.ResponseWriter
	mark   func(status int)
	marked bool
}

func (w *writtenMarker) before(status int) {
	if !w.marked {
		w.marked = true
		w.mark(status)
	}
}

func (w *writtenMarker) WriteHeader(status int) {
	w.before(status)
	w.ResponseWriter.WriteHeader(status)
}

func (w *writtenMarker) Write(b []byte) (int, error) {
	w.before(w.Status())
	return w.ResponseWriter.Write(b)
}

func (w *writtenMarker) WriteString(s string) (int, error) {
	w.before(w.Status())
	return w.ResponseWriter.WriteString(s)
}

func (w *writtenMarker) WriteHeaderNow() {
	w.before(w.Status())
	w.ResponseWriter.WriteHeaderNow()
}
