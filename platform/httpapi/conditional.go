package httpapi

import (
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// Conditional is embedded in the input of a read that answers a validator
// (an ETag): a client that sends back the ETag of the copy it holds gets
// 304 Not Modified and no body while that copy is still what the read
// would answer.
type Conditional struct {
	IfNoneMatch string `header:"If-None-Match" doc:"ETags of copies the caller holds (as this read answered them): 304 with no body while one is current"`
}

// cacheControl makes a browser (and only it: the answers are per caller)
// keep the copy and ask again, with its ETag, before each use.
const cacheControl = "private, no-cache"

// Holds says whether the caller's If-None-Match names etag, compared as
// RFC 9110 says for it (weakly: a W/ prefix is ignored; "*" names any).
func (c Conditional) Holds(etag string) bool {
	if c.IfNoneMatch == "" {
		return false
	}
	want := strings.TrimPrefix(etag, "W/")
	for _, tag := range strings.Split(c.IfNoneMatch, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" || strings.TrimPrefix(tag, "W/") == want {
			return true
		}
	}
	return false
}

// Validated answers the concatenated JSON parts (as EncodedJSON) tagged
// with etag, or, when the caller already holds that copy, 304 with the
// tag and no body: the parts are then neither written nor sent. etag is a
// quoted entity tag (`"..."`) that names the parts' bytes exactly.
func (c Conditional) Validated(etag string, parts ...[]byte) *Encoded {
	if c.Holds(etag) {
		return &Encoded{Body: func(ctx huma.Context) {
			ctx.SetHeader("ETag", etag)
			ctx.SetHeader("Cache-Control", cacheControl)
			ctx.SetStatus(http.StatusNotModified)
		}}
	}
	body := EncodedJSON(parts...)
	return &Encoded{Body: func(ctx huma.Context) {
		ctx.SetHeader("ETag", etag)
		ctx.SetHeader("Cache-Control", cacheControl)
		body.Body(ctx)
	}}
}
