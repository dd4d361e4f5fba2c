package ai_test

import (
	"bytes"
	"fmt"
	"mime/multipart"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/e2e/support/standin"
	"github.com/roundsedu/rounds/platform/auth"
)

// wav is the start of a WAV recording: what the route sniffs.
var wav = append([]byte("RIFF\x24\x00\x00\x00WAVEfmt "), make([]byte, 64)...)

// transcribe posts data as the field "file" of a multipart form.
func transcribe(u *User, field string, data []byte) *Response {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, err := mw.CreateFormFile(field, "note.mp3") // the name claims MP3: only the bytes count
	Expect(err).NotTo(HaveOccurred())
	_, _ = fw.Write(data)
	Expect(mw.Close()).To(Succeed())
	return u.Client(h).With("Content-Type", mw.FormDataContentType()).Post("/api/v1/stt/transcribe", b.Bytes())
}

var _ = Describe("Speech to text", Ordered, func() {
	It("answers 503 while no stt model is configured, before calling anything", func() {
		proxy.Calls()
		Expect(transcribe(h.NewUser(auth.RoleUser), "file", wav)).To(HaveError(503, "unavailable"))
		Expect(proxy.Calls()).To(BeEmpty())
	})

	It("transcribes a recording with the stt model, sending its bytes as the sniffed format", func() {
		modelID(addModel(q{"name": "Whisper", "model_id": "whisper-1", "task": "stt"}))
		u := h.NewUser(auth.RoleUser)
		proxy.Calls()
		res := transcribe(u, "file", wav)
		Expect(res).To(HaveStatus(200))
		Expect(res.Map()).To(Equal(map[string]any{"text": standin.Transcript, "model": "whisper-1"}))
		calls := proxy.Calls()
		Expect(calls).To(HaveLen(1))
		Expect(calls[0].Path).To(Equal("/v1/audio/transcriptions"))
		Expect(calls[0].Model).To(Equal("whisper-1"))
		Expect(calls[0].Filename).To(Equal("audio.wav"))
		Expect(calls[0].Audio).To(Equal(wav))
		var used int
		Expect(h.App.DB.Conn(ctxb).Raw(`SELECT count(*) FROM ai.usage WHERE user_id = ? AND task = 'stt'`, u.ID).
			Scan(&used).Error).To(Succeed())
		Expect(used).To(Equal(1))
	})

	It("refuses what is not a recording, a missing field and a file over 10 MiB, calling nothing", func() {
		u := h.NewUser(auth.RoleUser)
		proxy.Calls()
		res := transcribe(u, "file", []byte("%PDF-1.7 not audio at all"))
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Body).To(ContainSubstring("body.file"))
		Expect(transcribe(u, "recording", wav)).To(HaveError(422, "invalid_request"))
		Expect(transcribe(u, "file", nil)).To(HaveError(422, "invalid_request"))
		Expect(u.Client(h).Post("/api/v1/stt/transcribe", q{"file": "x"})).To(HaveError(422, "invalid_request"))
		big := append(append([]byte{}, wav...), make([]byte, 10<<20)...)
		Expect(transcribe(u, "file", big)).To(HaveError(413, "too_large"))
		Expect(proxy.Calls()).To(BeEmpty())
	})

	It("tells a learner plainly when the model fails, and logs its message", func() {
		proxy.Set(standin.ServerError)
		defer proxy.Set(standin.OK)
		u := h.NewUser(auth.RoleUser)
		plainFailure(transcribe(u, "file", wav), "could not be transcribed")
		loggedFailure("stt", u.ID, "overloaded")
	})

	It("limits learners to 60 an hour, not admins or unthrottled people", func() {
		u := h.NewUser(auth.RoleUser)
		for i := range 60 {
			Expect(transcribe(u, "file", wav)).To(HaveStatus(200), fmt.Sprint(i))
		}
		res := transcribe(u, "file", wav)
		Expect(res).To(HaveError(429, "rate_limited"))
		Expect(res.Header.Get("Retry-After")).NotTo(BeEmpty())

		free := h.NewUser(auth.RoleUser)
		Expect(admin.Client(h).Put(fmt.Sprintf("/api/v1/admin/users/%d/unthrottle", free.ID), q{"unthrottled": true})).
			To(HaveStatus(200))
		for range 61 {
			Expect(transcribe(free, "file", wav)).To(HaveStatus(200))
		}
		Expect(transcribe(admin, "file", wav)).To(HaveStatus(200))
	})

	It("stops a learner at the daily quota an admin sets", func() {
		Expect(admin.Client(h).Put("/api/v1/admin/settings", q{"stt_daily_quota": 1})).To(HaveStatus(200))
		defer admin.Client(h).Put("/api/v1/admin/settings", q{"stt_daily_quota": 0})
		u := h.NewUser(auth.RoleUser)
		Expect(transcribe(u, "file", wav)).To(HaveStatus(200))
		res := transcribe(u, "file", wav)
		Expect(res).To(HaveError(429, "rate_limited"))
		Expect(res.Body).To(ContainSubstring("quota"))
	})
})
