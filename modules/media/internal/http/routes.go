// Package http is the media module's HTTP surface: figure uploads and
// placements on articles, the media library's routes, and GET /uploads.
package http

import (
	nethttp "net/http"

	"github.com/roundsedu/rounds/modules/media/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct {
	svc     *app.Service
	maxBody int64
}

// Register adds the media operations.
func Register(r *httpapi.Router, svc *app.Service, maxBody int64) {
	h := &handlers{svc: svc, maxBody: maxBody}
	figureRoutes(r, h)
	mediaRoutes(r, h)
}

func figureRoutes(r *httpapi.Router, h *handlers) {
	const tag = "articles"
	httpapi.RegisterUpload(r, auth.User, httpapi.Described(httpapi.Op(nethttp.MethodPost, "/articles/{id}/figures/image", tag,
		"Upload a still or a silent clip as a figure of a section", nethttp.StatusCreated, 400, 403, 404, 409, 422),
		"multipart/form-data: file (PNG, JPEG or WebP up to 8 MiB, or a silent MP4 or WebM up to "+
			"25 MiB; judged by its bytes), section_id, caption (required; becomes the alt text), title, credit "+
			"(required for attribution licences), source_url, license, modality, category_id, library_id, replace."), figureForm, h.upload)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPost, "/articles/{id}/figures/existing", tag,
		"Place an existing asset on a section", nethttp.StatusCreated, 403, 404, 409, 422), h.placeExisting)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodGet, "/articles/{id}/figures", tag,
		"An article's figures in the order of its markdown", 0, 404), h.figures)
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(nethttp.MethodPost, "/articles/{id}/figures", tag,
		"Draw a diagram figure from a spec (or take an SVG) and place it on a section", nethttp.StatusCreated,
		400, 404, 409, 422),
		"spec: {columns, boxes: [{id, label, row?, col?}], arrows: [{from, to, label?}], "+
			"groups: [{label, boxes}]} is drawn as SVG; svg takes a drawing made elsewhere. Either way the SVG is "+
			"parsed against an allowlist (no script, foreignObject, iframe, image, use, animation, event handlers, "+
			"DOCTYPE or entities; every url() and href a same-document fragment; viewBox required) and is at most "+
			"60,000 bytes (400 above)."), h.draw)
}

func mediaRoutes(r *httpapi.Router, h *handlers) {
	const tag = "media"
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodGet, "/media/", tag,
		"List and search media assets, newest first (not reranked)", 0), h.list)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodGet, "/media/libraries", tag,
		"The image libraries, by name", 0), h.libraries)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPost, "/media/libraries", tag,
		"Make an image library", nethttp.StatusCreated, 409, 422), h.createLibrary)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodGet, "/media/{asset_id}", tag,
		"One asset", 0, 404), h.asset)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPatch, "/media/{asset_id}", tag,
		"Replace an asset's metadata (the figure rules apply)", 0, 404, 409, 422), h.patchMeta)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPut, "/media/{asset_id}/overlay", tag,
		"Replace an image's overlay shapes (refused when the licence forbids derivatives)", 0, 403, 404, 422), h.setOverlay)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodDelete, "/media/{asset_id}", tag,
		"Bin an asset: its figures leave every article; restorable for 30 days", 0, 404, 409), h.bin)
	httpapi.Register(r, auth.Mod, httpapi.Op(nethttp.MethodPost, "/media/{asset_id}/restore", tag,
		"Restore a binned asset: its figure line returns at the end of every section it was in", 0, 400, 404), h.restore)
	httpapi.Register(r, auth.User, httpapi.Op(nethttp.MethodPost, "/media/{asset_id}/unlink", tag,
		"Take an asset off an article you may edit (the asset stays)", nethttp.StatusNoContent, 403, 404), h.unlink)
}
