package media_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Diagram figures", func() {
	It("draws a spec as sanitised SVG, places it and keeps the spec", func() {
		id := article("published")
		spec := q{"columns": 2, "boxes": []q{{"id": "ra", "label": "Right atrium"}, {"id": "rv", "label": "Right <ventricle>"}},
			"arrows": []q{{"from": "ra", "to": "rv", "label": "tricuspid"}},
			"groups": []q{{"label": "Right heart", "boxes": []string{"ra", "rv"}}}}
		res := mod.Client(h).Post(path("/articles/%d/figures", id), q{"section_id": "intro", "caption": "Right heart flow", "spec": spec})
		Expect(res).To(HaveStatus(201))
		a := res.Map()["asset"].(map[string]any)
		Expect(a["content_type"]).To(Equal("image/svg+xml"))
		Expect(a["modality"]).To(Equal("diagram"))
		Expect(a["spec"].(map[string]any)["columns"]).To(BeNumerically("==", 2))
		Expect(markdown(id, "intro")).To(ContainSubstring("![Right heart flow](/uploads/" + a["path"].(string) + ")"))

		served := h.NewUser(auth.RoleUser).Client(h).Get(a["url"].(string))
		Expect(served).To(HaveStatus(200))
		Expect(served.Header.Get("Content-Type")).To(Equal("image/svg+xml"))
		Expect(served.Header.Get("Content-Security-Policy")).To(ContainSubstring("default-src 'none'"))
		Expect(string(served.Body)).To(HavePrefix(`<svg xmlns="http://www.w3.org/2000/svg" viewBox=`))
		Expect(string(served.Body)).To(ContainSubstring("Right &lt;ventricle&gt;"))
		Expect(mod.Client(h).Get(a["url"].(string) + "?w=256")).To(HaveError(422, "invalid_request"))
	})

	It("takes an SVG drawn elsewhere and writes it back from its tokens", func() {
		id := article("draft")
		res := mod.Client(h).Post(path("/articles/%d/figures", id), q{"section_id": "intro", "caption": "Hand drawn",
			"svg": `<?xml version="1.0"?><svg width="10" viewBox="0 0 10 10"><!-- note --><circle cx="5" cy="5" r="4"/></svg>`})
		Expect(res).To(HaveStatus(201))
		body := mod.Client(h).Get(res.Map()["asset"].(map[string]any)["url"].(string))
		Expect(string(body.Body)).To(Equal(`<svg xmlns="http://www.w3.org/2000/svg" width="10" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"></circle></svg>`))
	})

	DescribeTable("refuses hostile SVG with nothing stored",
		func(svg string, status int, code string) {
			id := article("draft")
			before := assets()
			res := mod.Client(h).Post(path("/articles/%d/figures", id), q{"section_id": "intro", "caption": "x", "svg": svg})
			Expect(res).To(HaveError(status, code))
			Expect(assets()).To(Equal(before))
			Expect(markdown(id, "intro")).To(Equal("Opening text."))
		},
		Entry("script", `<svg viewBox="0 0 1 1"><script>alert(1)</script></svg>`, 422, "invalid_request"),
		Entry("mixed-case script", `<svg viewBox="0 0 1 1"><SCRIPT>alert(1)</SCRIPT></svg>`, 422, "invalid_request"),
		Entry("foreignObject", `<svg viewBox="0 0 1 1"><foreignObject/></svg>`, 422, "invalid_request"),
		Entry("iframe", `<svg viewBox="0 0 1 1"><iframe/></svg>`, 422, "invalid_request"),
		Entry("image", `<svg viewBox="0 0 1 1"><image href="#x"/></svg>`, 422, "invalid_request"),
		Entry("use", `<svg viewBox="0 0 1 1"><use href="#x"/></svg>`, 422, "invalid_request"),
		Entry("animate", `<svg viewBox="0 0 1 1"><animate/></svg>`, 422, "invalid_request"),
		Entry("set", `<svg viewBox="0 0 1 1"><set/></svg>`, 422, "invalid_request"),
		Entry("onload", `<svg viewBox="0 0 1 1" onLoad="x()"></svg>`, 422, "invalid_request"),
		Entry("remote url()", `<svg viewBox="0 0 1 1"><rect fill="url(https://evil/a)"/></svg>`, 422, "invalid_request"),
		Entry("style url()", `<svg viewBox="0 0 1 1"><rect style="fill:URL(//evil/a)"/></svg>`, 422, "invalid_request"),
		Entry("entity-spelled url()", `<svg viewBox="0 0 1 1"><rect style="fill:&#x75;rl(//evil)"/></svg>`, 422, "invalid_request"),
		Entry("xlink:href", `<svg xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1"><linearGradient xlink:href="https://evil"/></svg>`, 422, "invalid_request"),
		Entry("xml:base", `<svg viewBox="0 0 1 1" xml:base="https://evil/"></svg>`, 422, "invalid_request"),
		Entry("DOCTYPE with entities", `<!DOCTYPE svg [<!ENTITY a "b">]><svg viewBox="0 0 1 1">&a;</svg>`, 422, "invalid_request"),
		Entry("no viewBox", `<svg width="1" height="1"></svg>`, 422, "invalid_request"),
		Entry("over 60,000 bytes", `<svg viewBox="0 0 1 1">`+strings.Repeat("<g></g>", 9000)+`</svg>`, 400, "bad_request"),
	)

	It("refuses a bad spec, and both or neither of spec and svg (422)", func() {
		id := article("draft")
		c := mod.Client(h)
		Expect(c.Post(path("/articles/%d/figures", id), q{"section_id": "intro", "caption": "x"})).To(HaveError(422, "invalid_request"))
		Expect(c.Post(path("/articles/%d/figures", id), q{"section_id": "intro", "caption": "x",
			"spec": q{"boxes": []q{{"id": "a", "label": "A"}}}, "svg": "<svg/>"})).To(HaveError(422, "invalid_request"))
		Expect(c.Post(path("/articles/%d/figures", id), q{"section_id": "intro", "caption": "x",
			"spec": q{"boxes": []q{{"id": "a", "label": "A"}}, "arrows": []q{{"from": "a", "to": "zz"}}}})).
			To(HaveError(422, "invalid_request"))
	})
})
