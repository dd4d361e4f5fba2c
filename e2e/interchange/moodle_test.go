package interchange_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/auth"
)

// moodleFile is a Moodle XML export as Moodle writes it: HTML texts, an
// embedded image, a category, tags, and question kinds the bank cannot hold.
const moodleFile = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/top/Pharmacology</text></category></question>
  <question type="multichoice">
    <name><text>Beta blocker</text></name>
    <questiontext format="html"><text><![CDATA[<p>Which drug is a <b>beta</b>&nbsp;blocker?</p><p>Choose one.<img src="@@PLUGINFILE@@/x.png"></p>]]></text>
      <file name="x.png" path="/" encoding="base64">` + redPNG + `</file></questiontext>
    <generalfeedback format="html"><text>&lt;p&gt;Metoprolol is &amp;beta;1-selective.&lt;/p&gt;</text></generalfeedback>
    <single>true</single>
    <answer fraction="0" format="html"><text>Amlodipine</text><feedback><text>A calcium channel blocker.</text></feedback></answer>
    <answer fraction="100" format="html"><text>Metoprolol</text></answer>
    <tags><tag><text>drugs</text></tag></tags>
  </question>
  <question type="multichoice"><name><text>Multi</text></name><questiontext><text>Pick two</text></questiontext>
    <single>false</single><answer fraction="50"><text>a</text></answer><answer fraction="50"><text>b</text></answer></question>
  <question type="essay"><name><text>Essay</text></name><questiontext><text>Discuss.</text></questiontext></question>
  <question type="shortanswer"><name><text>Short</text></name><questiontext format="plain_text"><text>Name the drug</text></questiontext>
    <answer fraction="100"><text>aspirin</text></answer><answer fraction="100"><text>ASA</text></answer>
    <answer fraction="0"><text>paracetamol</text><feedback><text>No.</text></feedback></answer></question>
  <question type="truefalse"><name><text>TF</text></name><questiontext><text>Aspirin is an NSAID.</text></questiontext>
    <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
</quiz>`

// redPNG is a 2×2 PNG, base64.
const redPNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8AARAxg8j8AG/ID/fPnS7EAAAAASUVORK5CYII="

var expectedDrafts = []map[string]any{
	{"question_type": "mcq", "question_text": "Which drug is a **beta** blocker?\n\nChoose one.",
		"options": []any{"Amlodipine", "Metoprolol"}, "correct_answer": "Metoprolol",
		"explanation": "Metoprolol is β1-selective."},
	{"question_type": "fill_in", "question_text": "Name the drug", "options": []any{},
		"correct_answer": "aspirin|ASA", "explanation": ""},
	{"question_type": "mcq", "question_text": "Aspirin is an NSAID.", "options": []any{"True", "False"},
		"correct_answer": "True", "explanation": ""},
}

// draftPictures are the bytes of each draft's picture and explanation
// picture, read from storage (nil none).
func draftPictures(ds []map[string]any) [][2][]byte {
	out := make([][2][]byte, len(ds))
	for i, d := range ds {
		for k, field := range []string{"image_path", "explanation_image_path"} {
			if key, ok := d[field].(string); ok {
				out[i][k] = storedBytes(key)
			}
		}
	}
	return out
}

// storedBytes reads a file from the suite's storage.
func storedBytes(key string) []byte {
	rc, err := h.App.Storage.Open(context.Background(), key)
	Expect(err).NotTo(HaveOccurred())
	defer rc.Close()
	b, err := io.ReadAll(rc)
	Expect(err).NotTo(HaveOccurred())
	return b
}

var _ = Describe("Moodle XML import", func() {
	It("files the questions the bank can hold as pending drafts and lists each one left out", func() {
		before := stored()
		cat := newCategory("Pharmacology import")
		res := importFile(mod, "moodle-xml", fmt.Sprintf("category_id=%d&filename=pharm.xml", cat), moodleFile)
		Expect(res).To(HaveStatus(201))
		body := res.Map()
		Expect(body["imported"]).To(BeNumerically("==", 3))
		Expect(body["source"]).To(Equal("pharm.xml (Moodle XML)"))
		Expect(body["refused"]).To(Equal([]any{
			map[string]any{"item": 2.0, "name": "Multi", "reason": "several options may be right; the bank marks exactly one"},
			map[string]any{"item": 3.0, "name": "Essay", "reason": `question type "essay" is not supported (multichoice, truefalse and shortanswer are)`},
		}))

		batch := int64(body["batch_id"].(float64))
		b := mod.Client(h).Get(fmt.Sprintf("/api/v1/drafts/batches/%d", batch))
		Expect(b).To(HaveStatus(200))
		Expect(b.Map()["status"]).To(Equal("open"))
		Expect(b.Map()["extractor"]).To(Equal("moodle_xml"))
		Expect(b.Map()["category_id"]).To(BeNumerically("==", cat))
		ds := draftsOf(batch)
		Expect(content(ds)).To(Equal(expectedDrafts))
		red, _ := base64.StdEncoding.DecodeString(redPNG)
		Expect(draftPictures(ds)).To(Equal([][2][]byte{{red, nil}, {nil, nil}, {nil, nil}}))
		Expect(count("SELECT count(*) FROM media.assets WHERE path = ? AND content_type = 'image/png'", ds[0]["image_path"])).To(Equal(1))
		for _, d := range ds {
			Expect(d["status"]).To(Equal("pending"))
		}
		after := stored()
		Expect(after[0]).To(Equal(before[0] + 1))
		Expect(after[1]).To(Equal(before[1] + 3))
		Expect(after[2]).To(Equal(before[2]), "nothing enters the bank before acceptance")
	})

	It("round-trips: a quiz exported as Moodle XML imports back as the same questions", func() {
		cat := newCategory("Round trip")
		res := importFile(mod, "moodle-xml", fmt.Sprintf("category_id=%d", cat), moodleFile)
		Expect(res).To(HaveStatus(201))
		first := draftsOf(int64(res.Map()["batch_id"].(float64)))
		ids := make([]int64, len(first))
		for i, d := range first {
			ids[i] = IDOf(d)
		}
		Expect(mod.Client(h).Post("/api/v1/drafts/accept", map[string]any{"draft_ids": ids})).To(HaveStatus(200))
		quiz := mod.Client(h).Post(fmt.Sprintf("/api/v1/question-categories/%d/create-quiz?title=%s", cat,
			url.QueryEscape("Round trip")), nil)
		Expect(quiz).To(HaveStatus(201))

		exp := mod.Client(h).Get(fmt.Sprintf("/api/v1/quizzes/%d/export/moodle-xml", quiz.ID()))
		Expect(exp).To(HaveStatus(200))
		Expect(exp.Header.Get("Content-Type")).To(HavePrefix("application/xml"))
		Expect(exp.Header.Get("Content-Disposition")).To(ContainSubstring(".xml"))
		Expect(string(exp.Body)).To(ContainSubstring("$course$/top/Round trip"))

		again := importFile(mod, "moodle-xml", "", string(exp.Body))
		Expect(again).To(HaveStatus(201))
		Expect(again.Map()["refused"]).To(BeEmpty())
		second := draftsOf(int64(again.Map()["batch_id"].(float64)))
		Expect(content(second)).To(ConsistOf(content(first)))
		Expect(draftPictures(second)).To(ConsistOf(draftPictures(first)))
		Expect(second[0]["image_path"]).NotTo(Equal(first[0]["image_path"]), "a new asset holds the imported copy")
	})

	DescribeTable("refuses hostile and malformed files with nothing stored",
		func(body string, status int, code, message string) {
			before := stored()
			res := importFile(mod, "moodle-xml", "", body)
			Expect(res).To(HaveError(status, code))
			Expect(res.Map()["error"].(map[string]any)["message"]).To(ContainSubstring(message))
			Expect(stored()).To(Equal(before))
		},
		Entry("entity expansion (billion laughs)",
			`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><quiz>&lol2;</quiz>`,
			422, "invalid_request", "DOCTYPE"),
		Entry("external entity",
			`<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><quiz><question type="shortanswer"><questiontext><text>&x;</text></questiontext></question></quiz>`,
			422, "invalid_request", "DOCTYPE"),
		Entry("not XML", "%PDF-1.7 binary", 400, "bad_request", "not a Moodle XML file"),
		Entry("another XML document", "<html><body/></html>", 400, "bad_request", "not <quiz>"),
		Entry("truncated", `<quiz><question type="shortanswer"><name>`, 400, "bad_request", "cannot be read"),
		Entry("nothing the bank can hold",
			`<quiz><question type="essay"><name><text>E</text></name><questiontext><text>Discuss</text></questiontext></question></quiz>`,
			422, "invalid_request", "none of the file's 1 questions"),
		Entry("oversized body", "<quiz>"+strings.Repeat("<!-- padding -->", maxImportBytes/16+1)+"</quiz>",
			413, "too_large", ""),
		Entry("more questions than allowed",
			"<quiz>"+strings.Repeat(`<question type="essay"/>`, maxQuestions+1)+"</quiz>", 413, "too_large", "more than 40 questions"),
	)

	It("refuses learners, unknown categories and unknown formats", func() {
		before := stored()
		learner := h.NewUser(auth.RoleUser)
		Expect(importFile(learner, "moodle-xml", "", moodleFile)).To(HaveError(403, "forbidden"))
		Expect(importFile(mod, "moodle-xml", "category_id=999999", moodleFile)).To(HaveError(422, "invalid_request"))
		Expect(importFile(mod, "qti", "", moodleFile)).To(HaveError(422, "invalid_request"))
		Expect(stored()).To(Equal(before))
	})

	It("exports only to moderators and only quizzes that exist", func() {
		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Get("/api/v1/quizzes/1/export/moodle-xml")).To(HaveError(403, "forbidden"))
		Expect(mod.Client(h).Get("/api/v1/quizzes/999999/export/moodle-xml")).To(HaveError(404, "not_found"))
	})
})

var _ = Describe("Moodle's own fixtures", func() {
	fixture := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", "modules", "interchange", "internal", "format", "testdata", "moodle", name))
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}

	It("imports Moodle 1.9's question picture as the draft's picture and refuses the cloze question by name", func() {
		res := importFile(mod, "moodle-xml", "filename=sample_questions_with_old_image_tag.xml", fixture("sample_questions_with_old_image_tag.xml"))
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()["imported"]).To(BeNumerically("==", 1))
		Expect(res.Map()["refused"]).To(ConsistOf(And(HaveKeyWithValue("name", "cloze question with image"),
			HaveKeyWithValue("reason", ContainSubstring(`"cloze" is not supported`)))))
		ds := draftsOf(int64(res.Map()["batch_id"].(float64)))
		Expect(ds).To(HaveLen(1))
		Expect(ds[0]["options"]).To(Equal([]any{"wrong answer", "another wrong answer", "right answer"}))
		pic := draftPictures(ds)[0][0]
		Expect(pic).To(HavePrefix("\x89PNG"))
		Expect(count("SELECT count(*) FROM media.assets WHERE path = ? AND width = 16 AND height = 16", ds[0]["image_path"])).To(Equal(1))
	})

	It("refuses Moodle's invalid grades fixture by the question's name, with nothing stored", func() {
		before := stored()
		res := importFile(mod, "moodle-xml", "", fixture("error_invalid_grades.xml"))
		Expect(res).To(HaveError(422, "invalid_request"))
		Expect(res.Map()["error"].(map[string]any)["fields"]).To(ConsistOf(HaveKeyWithValue("message",
			"several options may be right; the bank marks exactly one")))
		Expect(stored()).To(Equal(before))
	})

	It("imports Moodle's GIFT fixture, refusing the types the bank cannot hold by name", func() {
		res := importFile(mod, "gift", "", fixture("questions.gift.txt"))
		Expect(res).To(HaveStatus(201))
		Expect(res.Map()["imported"]).To(BeNumerically("==", 4))
		var names []any
		for _, r := range res.Map()["refused"].([]any) {
			names = append(names, r.(map[string]any)["name"])
		}
		Expect(names).To(ConsistOf("Q8", "Moodle activities", "colours", "Q5", "Shortanswer"))
	})
})
