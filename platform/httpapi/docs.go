package httpapi

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"
)

// The API reference viewer is served from the binary, so /api/docs works
// offline and loads nothing from a CDN: redoc's standalone bundle, vendored
// from npm (redoc@2.5.1, MIT, docsassets/LICENSE), embedded here. Update it
// with `npm pack redoc@<version>` and copy bundles/redoc.standalone.js.
//
//go:embed docsassets/redoc.standalone.js
var redocBundle []byte

// RedocVersion is the vendored viewer's version (its URL changes with it,
// so browsers may cache it for good).
const RedocVersion = "2.5.1"

var redocScript = "/api/docs/redoc-" + RedocVersion + ".standalone.js"

var docsPage = []byte(`<!doctype html>
<html><head><title>Rounds API</title><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="/api/openapi.json"></redoc>
<script src="` + redocScript + `"></script>
</body></html>`)

// docsRoutes serves the reference at /api/docs (and /api/redoc, its
// earlier address) and the viewer's script.
func docsRoutes(engine *gin.Engine) {
	page := func(c *gin.Context) { c.Data(http.StatusOK, "text/html; charset=utf-8", docsPage) }
	engine.GET("/api/docs", page)
	engine.GET("/api/redoc", page)
	engine.GET(redocScript, func(c *gin.Context) {
		c.Header("Cache-Control", "public, max-age=31536000, immutable")
		c.Data(http.StatusOK, "text/javascript; charset=utf-8", redocBundle)
	})
}
