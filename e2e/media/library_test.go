package media_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

var _ = Describe("Media routes", func() {
	It("lists and searches assets for moderators only, newest first", func() {
		id := article("draft")
		Expect(upload(mod, id, pngOf(8, 8), "a.png", fields("intro", "Pneumothorax on a supine film", "modality", "radiograph"))).
			To(HaveStatus(201))
		Expect(upload(mod, id, pngOf(8, 8), "b.png", fields("findings", "Sinus rhythm strip", "modality", "chart"))).
			To(HaveStatus(201))
		res := mod.Client(h).Get(api + "/media/?q=pneumothorax")
		Expect(res).To(HaveStatus(200))
		Expect(res.List()).To(HaveLen(1))
		Expect(res.List()[0].(map[string]any)["modality"]).To(Equal("radiograph"))
		Expect(mod.Client(h).Get(api + "/media/?modality=chart&limit=200").List()).NotTo(BeEmpty())
		Expect(mod.Client(h).Get(api + "/media/?q=%25")).To(HaveStatus(200))
		Expect(h.NewUser(auth.RoleUser).Client(h).Get(api + "/media/")).To(HaveError(403, "forbidden"))
	})

	It("shows, updates and binds the figure rules to metadata", func() {
		_, a := figure("draft", 8, 8)
		url := path("/media/%d", int64(a["id"].(float64)))
		Expect(mod.Client(h).Get(url)).To(HaveStatus(200))
		res := mod.Client(h).Patch(url, q{"caption": "Better caption", "license": "CC BY 4.0", "credit": "A. Author",
			"modality": "photograph"})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["alt_text"]).To(Equal("Better caption"))
		Expect(mod.Client(h).Patch(url, q{"caption": "x", "license": "cc by-sa"})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(url, q{"caption": ""})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(url, q{"caption": "x", "modality": "xray"})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Get(path("/media/%d", 99999999))).To(HaveError(404, "not_found"))
	})

	It("stores overlay shapes, and blocks the overlay tool for a no-derivatives licence", func() {
		_, a := figure("draft", 100, 80)
		url := path("/media/%d", int64(a["id"].(float64)))
		shapes := []q{{"kind": "rect", "x": 10, "y": 10, "w": 20, "h": 20, "label": "apex"},
			{"kind": "polygon", "points": [][]float64{{1, 1}, {50, 1}, {25, 40}}}}
		res := mod.Client(h).Put(url+"/overlay", q{"shapes": shapes})
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()["overlay"]).To(HaveLen(2))
		Expect(mod.Client(h).Put(url+"/overlay", q{"shapes": []q{{"kind": "rect", "x": 90, "y": 10, "w": 20, "h": 5}}})).
			To(HaveError(422, "invalid_request"), "outside the image")
		Expect(mod.Client(h).Put(url+"/overlay", q{"shapes": []q{{"kind": "script"}}})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Patch(url, q{"caption": "x", "license": "CC BY-ND 4.0", "credit": "B"})).
			To(HaveError(409, "conflict"), "an overlay already drawn")
		Expect(mod.Client(h).Put(url+"/overlay", q{"shapes": []q{}})).To(HaveStatus(200))
		Expect(mod.Client(h).Patch(url, q{"caption": "x", "license": "CC BY-ND 4.0", "credit": "B"})).To(HaveStatus(200))
		Expect(mod.Client(h).Put(url+"/overlay", q{"shapes": shapes})).To(HaveError(403, "forbidden"))
		Expect(scalar[string](`SELECT overlay::text FROM media.assets WHERE id = ?`, int64(a["id"].(float64)))).To(Equal("[]"))
	})
})

var _ = Describe("Image libraries", func() {
	It("are made and listed by moderators, and an asset files into one", func() {
		res := mod.Client(h).Post(api+"/media/libraries", q{"name": "Chest films"})
		Expect(res).To(HaveStatus(201))
		lib := int64(res.Map()["id"].(float64))
		Expect(mod.Client(h).Post(api+"/media/libraries", q{"name": "chest FILMS"})).To(HaveError(409, "conflict"))
		Expect(mod.Client(h).Post(api+"/media/libraries", q{"name": " "})).To(HaveError(422, "invalid_request"))
		Expect(mod.Client(h).Get(api + "/media/libraries").List()).NotTo(BeEmpty())
		Expect(h.NewUser(auth.RoleUser).Client(h).Get(api + "/media/libraries")).To(HaveError(403, "forbidden"))

		id := article("draft")
		Expect(upload(mod, id, pngOf(4, 4), "a.png", fields("intro", "Filed", "library_id", fmt.Sprint(lib)))).To(HaveStatus(201))
		Expect(mod.Client(h).Get(path("/media/?library_id=%d", lib)).List()).To(HaveLen(1))
		Expect(upload(mod, id, pngOf(4, 4), "b.png", fields("findings", "Nowhere", "library_id", "99999999"))).
			To(HaveError(422, "invalid_request"))
	})
})
