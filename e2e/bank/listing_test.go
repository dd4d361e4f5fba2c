package bank_test

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/platform/auth"
)

type listed struct {
	ID                   int64    `json:"id"`
	QuizID               *int64   `json:"quiz_id"`
	QuizTitle            *string  `json:"quiz_title"`
	QuestionCategoryID   *int64   `json:"question_category_id"`
	QuestionCategoryName *string  `json:"question_category_name"`
	QuestionText         string   `json:"question_text"`
	QuestionType         string   `json:"question_type"`
	Options              []string `json:"options"`
	CorrectAnswer        *string  `json:"correct_answer"`
	Explanation          *string  `json:"explanation"`
	ImagePath            *string  `json:"image_path"`
	CanEdit              bool     `json:"can_edit"`
}

type listing struct {
	Total      int64    `json:"total"`
	Questions  []listed `json:"questions"`
	SearchMode *string  `json:"search_mode"`
}

func list(u *User, query string) listing {
	res := u.Client(h).Get(api + "/questions/bank?" + query)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var l listing
	res.JSON(&l)
	return l
}

func (l listing) ids() []int64 {
	out := []int64{}
	for _, x := range l.Questions {
		out = append(out, x.ID)
	}
	return out
}

func idsQuery(u *User, query string) []int64 {
	res := u.Client(h).Get(api + "/questions/bank/ids?" + query)
	ExpectWithOffset(1, res).To(HaveStatus(200))
	var out []int64
	res.JSON(&out)
	return out
}

func csv(ids ...int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, ",")
}

var _ = Describe("The bank listing: who sees what", func() {
	var cat, child, elsewhere, inBranch, inChild, outside int64

	BeforeEach(func() {
		cat = category(unique("ScopeCat"), nil, nil)
		child = category(unique("ScopeChild"), &cat, nil)
		elsewhere = category(unique("ScopeElse"), nil, nil)
		inBranch = create(mcq(unique("Branch question"), q{"question_category_id": cat}))
		inChild = create(mcq(unique("Child question"), q{"question_category_id": child}))
		// In a published quiz: a learner reaches it, so may favourite it.
		outside = createOpen(mcq(unique("Outside question"), q{"question_category_id": elsewhere}))
	})

	It("shows a plain learner nothing at all", func() {
		learner := h.NewUser(auth.RoleUser)
		l := list(learner, "")
		Expect(l.Total).To(BeZero())
		Expect(l.Questions).To(BeEmpty())
		Expect(idsQuery(learner, "")).To(BeEmpty())
		Expect(list(learner, "category_id="+fmt.Sprint(cat)).Total).To(BeZero())
	})

	It("shows a learner their favourites, answer side null", func() {
		learner := h.NewUser(auth.RoleUser)
		Expect(learner.Client(h).Post(api+"/favorites", q{"question_id": outside})).To(HaveStatus(201))
		l := list(learner, "")
		Expect(l.ids()).To(Equal([]int64{outside}))
		Expect(l.Questions[0].CanEdit).To(BeFalse())
		Expect(l.Questions[0].CorrectAnswer).To(BeNil())
		Expect(l.Questions[0].Explanation).To(BeNil())
		Expect(l.Questions[0].Options).To(HaveLen(4))
		Expect(idsQuery(learner, "favorites_only=true")).To(Equal([]int64{outside}))
	})

	It("shows a grant holder the covered branch with answers, plus favourites without", func() {
		holder := grantHolder("category", cat)
		Expect(holder.Client(h).Post(api+"/favorites", q{"question_id": outside})).To(HaveStatus(201))
		l := list(holder, "")
		Expect(l.ids()).To(ConsistOf(inBranch, inChild, outside))
		for _, x := range l.Questions {
			if x.ID == outside {
				Expect(x.CanEdit).To(BeFalse())
				Expect(x.CorrectAnswer).To(BeNil())
			} else {
				Expect(x.CanEdit).To(BeTrue())
				Expect(*x.CorrectAnswer).To(Equal("Bravo"))
			}
		}
		Expect(idsQuery(holder, "")).To(ConsistOf(inBranch, inChild, outside))
	})

	It("shows a quiz grant holder that quiz's questions", func() {
		own := create(mcq(unique("Grant quiz question")))
		z := quiz(unique("Grant quiz"), []int64{own})
		holder := grantHolder("quiz", z)
		l := list(holder, "")
		Expect(l.ids()).To(Equal([]int64{own}))
		Expect(l.Questions[0].CanEdit).To(BeTrue())
		Expect(l.Questions[0].QuizID).To(Equal(&z))
	})

	It("shows moderators and admins the whole bank with answers", func() {
		for _, u := range []*User{mod, admin} {
			l := list(u, "category_ids="+csv(cat, elsewhere))
			Expect(l.ids()).To(ConsistOf(inBranch, inChild, outside))
			for _, x := range l.Questions {
				Expect(x.CanEdit).To(BeTrue())
				Expect(*x.Explanation).To(Equal("Bravo is right because of the rule."))
			}
		}
	})
})

var _ = Describe("The bank listing: filters", func() {
	var top, sub, other int64
	var a, b, c, d int64 // a in top, b in sub, c in other, d uncategorised
	var word string

	BeforeEach(func() {
		word = unique("filterword")
		top = category(unique("FilterTop"), nil, nil)
		sub = category(unique("FilterSub"), &top, nil)
		other = category(unique("FilterOther"), nil, nil)
		a = create(mcq(word+" alpha", q{"question_category_id": top}))
		b = create(mcq(word+" bravo", q{"question_category_id": sub}))
		c = create(mcq(word+" charlie", q{"question_category_id": other}))
		d = create(mcq(word + " delta"))
	})

	It("category_id takes the category and everything below it", func() {
		Expect(list(mod, "category_id="+fmt.Sprint(top)).ids()).To(ConsistOf(a, b))
		Expect(list(mod, "category_id="+fmt.Sprint(sub)).ids()).To(ConsistOf(b))
	})

	It("category_ids is OR over the set", func() {
		Expect(list(mod, "category_ids="+csv(sub, other)).ids()).To(ConsistOf(b, c))
		Expect(idsQuery(mod, "category_ids="+csv(sub, other))).To(ConsistOf(b, c))
	})

	It("uncategorized keeps unfiled questions, or adds them to a category filter", func() {
		Expect(list(mod, "q="+word+"&search_mode=keyword&uncategorized=true").ids()).To(ConsistOf(d))
		Expect(list(mod, "q="+word+"&search_mode=keyword&uncategorized=true&category_id="+fmt.Sprint(other)).ids()).
			To(ConsistOf(c, d))
	})

	It("quiz_id keeps the quiz's questions, and never a trashed quiz's", func() {
		z := quiz(unique("Filter quiz"), []int64{a, c})
		l := list(mod, "quiz_id="+fmt.Sprint(z))
		Expect(l.ids()).To(ConsistOf(a, c))
		for _, x := range l.Questions {
			Expect(*x.QuizID).To(Equal(z))
			Expect(*x.QuizTitle).To(HavePrefix("Filter quiz"))
		}
		Expect(mod.Client(h).Delete(path("/quizzes/%d", z))).To(HaveStatus(204))
		Expect(list(mod, "quiz_id="+fmt.Sprint(z)).Total).To(BeZero())
		for _, x := range list(mod, "category_id="+fmt.Sprint(top)).Questions {
			Expect(x.QuizID).To(BeNil())
		}
	})

	It("favorites_only keeps the caller's favourites", func() {
		Expect(mod.Client(h).Post(api+"/favorites", q{"question_id": b})).To(HaveStatus(201))
		Expect(admin.Client(h).Post(api+"/favorites", q{"question_id": c})).To(HaveStatus(201))
		Expect(list(mod, "favorites_only=true&q="+word+"&search_mode=keyword").ids()).To(ConsistOf(b))
		Expect(list(admin, "favorites_only=true&q="+word+"&search_mode=keyword").ids()).To(ConsistOf(c))
	})

	It("tag_ids is AND: a question must carry every tag asked", func() {
		subject := tag(a, "subject", unique("Subject"))
		tag(b, "subject", "dummy")
		disease := tag(a, "disease", unique("Disease"))
		tag(b, "disease", "dummy-disease")
		_ = tag(b, "subject", mustTagName(subject))
		Expect(list(mod, "tag_ids="+csv(subject)).ids()).To(ConsistOf(a, b))
		Expect(list(mod, "tag_ids="+csv(subject, disease)).ids()).To(ConsistOf(a))
		Expect(idsQuery(mod, "tag_ids="+csv(subject, disease))).To(ConsistOf(a))
	})

	It("a system tag reaches questions through their category's ancestry", func() {
		sys := systemTag("Endocrine")
		Expect(mod.Client(h).Patch(path("/question-categories/%d", top), q{"system_id": sys})).To(HaveStatus(200))
		subject := tag(b, "subject", unique("SysSubject"))
		l := list(mod, "tag_ids="+csv(sys)+"&q="+word+"&search_mode=keyword")
		Expect(l.ids()).To(ConsistOf(a, b))
		Expect(list(mod, "tag_ids="+csv(sys, subject)).ids()).To(ConsistOf(b))
		// A nearer category naming another system wins for its questions.
		Expect(mod.Client(h).Patch(path("/question-categories/%d", sub), q{"system_id": systemTag("Skin")})).
			To(HaveStatus(200))
		Expect(list(mod, "tag_ids="+csv(sys)+"&q="+word+"&search_mode=keyword").ids()).To(ConsistOf(a))
		detail := mod.Client(h).Get(path("/questions/detail/%d", b)).Map()
		Expect(detail["tags"]).To(ContainElement(And(HaveKeyWithValue("type", "system"),
			HaveKeyWithValue("name", "Skin"), HaveKeyWithValue("derived", true))))
	})

	It("a retired keyword tag or an unknown tag matches nothing", func() {
		kw := tag(a, "keyword", unique("kw"))
		Expect(list(mod, "tag_ids="+csv(kw)).Total).To(BeZero())
		Expect(list(mod, "tag_ids=987654321").Total).To(BeZero())
	})

	It("combines filters", func() {
		subject := tag(b, "subject", unique("Combo"))
		tag(c, "subject", mustTagName(subject))
		Expect(mod.Client(h).Post(api+"/favorites", q{"question_id": b})).To(HaveStatus(201))
		Expect(mod.Client(h).Post(api+"/favorites", q{"question_id": c})).To(HaveStatus(201))
		query := "q=" + word + "&search_mode=keyword&category_ids=" + csv(top, other) + "&tag_ids=" + csv(subject) +
			"&favorites_only=true"
		Expect(list(mod, query).ids()).To(ConsistOf(b, c))
		Expect(list(mod, query+"&category_id="+fmt.Sprint(sub)).ids()).To(ConsistOf(b, c))
		Expect(list(mod, "q="+word+"&search_mode=keyword&category_id="+fmt.Sprint(sub)+"&tag_ids="+csv(subject)+
			"&favorites_only=true").ids()).To(ConsistOf(b))
	})

	It("pages with limit and offset and reports the total", func() {
		query := "q=" + word + "&search_mode=keyword"
		all := list(mod, query)
		Expect(all.Total).To(BeEquivalentTo(4))
		first := list(mod, query+"&limit=2")
		second := list(mod, query+"&limit=2&offset=2")
		Expect(first.Total).To(BeEquivalentTo(4))
		Expect(first.Questions).To(HaveLen(2))
		Expect(second.Questions).To(HaveLen(2))
		Expect(append(first.ids(), second.ids()...)).To(Equal(all.ids()))
		beyond := list(mod, query+"&offset=10")
		Expect(beyond.Total).To(BeEquivalentTo(4))
		Expect(beyond.Questions).To(BeEmpty())
	})

	It("lists newest first without text", func() {
		Expect(list(mod, "category_ids="+csv(top, sub, other)).ids()).To(Equal([]int64{c, b, a}))
	})

	DescribeTable("refuses bad parameters (422)",
		func(query string) {
			Expect(mod.Client(h).Get(api + "/questions/bank?" + query)).To(HaveError(422, "invalid_request"))
		},
		Entry("limit above 200", "limit=201"),
		Entry("limit zero", "limit=0"),
		Entry("negative offset", "offset=-1"),
		Entry("unknown search mode", "search_mode=fuzzy"),
		Entry("non-numeric category_ids", "category_ids=1,x"),
		Entry("non-numeric tag_ids", "tag_ids=a"),
		Entry("non-numeric quiz_id", "quiz_id=first"),
	)

	It("defaults to 50 per page and allows 200", func() {
		Expect(len(list(mod, "").Questions)).To(BeNumerically("<=", 50))
		Expect(list(mod, "limit=200").Questions).NotTo(BeEmpty())
	})
})

var _ = Describe("The bank listing: keyword search", func() {
	It("weights stem over options over explanation", func() {
		word := unique("rankword")
		inExplanation := create(mcq("An unrelated stem one", q{"explanation": "The answer hinges on " + word + "."}))
		inOption := create(mcq("An unrelated stem two", q{"options": []string{word, "Bravo", "C", "D"}}))
		inStem := create(mcq("Which " + word + " is it?"))
		l := list(mod, "q="+word+"&search_mode=keyword")
		Expect(l.ids()).To(Equal([]int64{inStem, inOption, inExplanation}))
		Expect(*l.SearchMode).To(Equal("keyword"))
	})

	It("ignores accents and case, and matches word forms", func() {
		word := unique("accent")
		id := create(mcq("Ménière disease presents with " + word + " infarctions"))
		for _, text := range []string{"meniere " + word, "MÉNIÈRE " + word, "menière " + word, word + " infarction"} {
			Expect(list(mod, "search_mode=keyword&q="+url.QueryEscape(text)).ids()).To(ContainElement(id), text)
		}
		Expect(list(mod, "search_mode=keyword&q="+url.QueryEscape(word+" kidney")).ids()).NotTo(ContainElement(id))
	})

	It("applies the caller's reach to text search too", func() {
		word := unique("reachword")
		create(mcq("Secret " + word))
		learner := h.NewUser(auth.RoleUser)
		Expect(list(learner, "search_mode=keyword&q="+word).Total).To(BeZero())
		Expect(list(mod, "search_mode=keyword&q="+word).Total).To(BeEquivalentTo(1))
	})

	It("matches /questions/bank/ids by keyword", func() {
		word := unique("idsword")
		x := create(mcq("First " + word))
		y := create(mcq("Second " + word))
		Expect(idsQuery(mod, "q="+word)).To(Equal([]int64{y, x}))
	})
})

var _ = Describe("The bank listing: semantic and hybrid through the search module", func() {
	It("hybrid lists keyword matches at once and reports the mode", func() {
		word := unique("hybridword")
		id := create(mcq("A question about " + word))
		l := list(mod, "q="+word)
		Expect(*l.SearchMode).To(Equal("hybrid"))
		Expect(l.ids()).To(ContainElement(id))
	})

	It("semantic finds a question by its own words once search has indexed it", func() {
		text := "Painless jaundice with a palpable gallbladder suggests " + unique("courvoisier")
		id := create(mcq(text))
		Eventually(func() []int64 {
			return list(mod, "search_mode=semantic&q="+url.QueryEscape(text)).ids()
		}).WithTimeout(eventWait).WithPolling(200 * time.Millisecond).Should(ContainElement(id))
		l := list(mod, "search_mode=semantic&q="+url.QueryEscape(text))
		Expect(*l.SearchMode).To(Equal("semantic"))
		Expect(l.ids()[0]).To(Equal(id))
	})

	It("hybrid puts the semantic matches first, then keyword matches", func() {
		word := unique("hybridorder")
		text := "Crushing retrosternal pain radiating to the jaw " + word
		semantic := create(mcq(text))
		keywordOnly := create(mcq("Unrelated", q{"explanation": "mentions " + word + " only here"}))
		Eventually(func() []int64 {
			return list(mod, "search_mode=semantic&q="+url.QueryEscape(text)).ids()
		}).WithTimeout(eventWait).WithPolling(200 * time.Millisecond).Should(ContainElement(semantic))
		l := list(mod, "q="+url.QueryEscape(text))
		Expect(l.ids()).To(ContainElement(semantic))
		Expect(l.ids()[0]).To(Equal(semantic))
		hybrid := list(mod, "q="+word)
		Expect(hybrid.ids()).To(ContainElement(keywordOnly))
	})
})

var _ = Describe("The bank listing without a search module", Ordered, func() {
	var bare *Harness

	BeforeAll(func() {
		var err error
		bare, err = Start(BeforeStart(func(a *app.App) { app.Lookup[*bank.Module](a).SetSearch(nil) }))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(bare.Stop()).To(Succeed()) })
	})

	It("searches quizzes by keyword only: title, questions, both, exactly", func() {
		m := bare.NewUser(auth.RoleModerator)
		word := MadeUpWord()
		newQuestion := func(body q) int64 {
			res := m.Client(bare).Post(api+"/questions/create", body)
			Expect(res).To(HaveStatus(201))
			return int64(res.Map()["id"].(float64))
		}
		quizOf := func(title string, ids ...int64) int64 {
			res := m.Client(bare).Post(api+"/questions/from-bank", q{"title": title, "question_ids": ids})
			Expect(res).To(HaveStatus(201))
			return int64(res.Map()["id"].(float64))
		}
		inside, plain := newQuestion(mcq("A stem mentioning "+word)), newQuestion(mcq("Plain stem"))
		byTitle := quizOf("Renal "+word+" review", plain)
		byQuestion := quizOf("Unrelated title", plain, inside)
		both := quizOf("Café "+word, inside)
		res := m.Client(bare).Get(api + "/quizzes/search?q=" + word)
		Expect(res).To(HaveStatus(200))
		var hits []struct {
			QuizID            int64            `json:"quiz_id"`
			MatchType         string           `json:"match_type"`
			MatchingQuestions []map[string]any `json:"matching_questions"`
		}
		res.JSON(&hits)
		Expect(hits).To(HaveLen(3))
		types := map[int64]string{}
		for _, x := range hits {
			types[x.QuizID] = x.MatchType
			if x.QuizID == byTitle {
				Expect(x.MatchingQuestions).To(BeEmpty())
			} else {
				Expect(x.MatchingQuestions).To(ConsistOf(HaveKeyWithValue("id", BeEquivalentTo(inside))))
			}
		}
		Expect(types).To(Equal(map[int64]string{byTitle: "title", byQuestion: "questions", both: "both"}))
		Expect(hits[2].QuizID).To(Equal(byQuestion), "title matches first")
		res = m.Client(bare).Get(api + "/quizzes/search?mode=questions&q=" + word)
		res.JSON(&hits)
		Expect(hits).To(HaveLen(2))
		res = m.Client(bare).Get(api + "/quizzes/search?mode=title&q=" + word)
		res.JSON(&hits)
		Expect(hits).To(HaveLen(2))
	})

	It("runs semantic and hybrid as keyword", func() {
		m := bare.NewUser(auth.RoleModerator)
		word := unique("fallback")
		res := m.Client(bare).Post(api+"/questions/create", mcq("Fallback "+word))
		Expect(res).To(HaveStatus(201))
		id := int64(res.Map()["id"].(float64))
		for _, mode := range []string{"semantic", "hybrid"} {
			res := m.Client(bare).Get(api + "/questions/bank?search_mode=" + mode + "&q=" + word)
			Expect(res).To(HaveStatus(200))
			var l listing
			res.JSON(&l)
			Expect(*l.SearchMode).To(Equal("keyword"))
			Expect(l.ids()).To(Equal([]int64{id}))
		}
	})
})

// mustTagName reads a tag's name back (to attach the same tag elsewhere).
func mustTagName(id int64) string {
	var name string
	ExpectWithOffset(1, h.App.DB.Conn(ctxBG).Raw(`SELECT name FROM bank.tags WHERE id = ?`, id).Scan(&name).Error).
		To(Succeed())
	return name
}
