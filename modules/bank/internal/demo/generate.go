package demo

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
)

// Category is a demo category; Parent is another category's Name ("" for
// the top), System a system tag name.
type Category struct {
	Name, Description, Parent, System string
}

// Question is a demo question filed under Category (a topic name within
// System), tagged with Subject and Disease.
type Question struct {
	Type               string
	Text               string
	Options            []string
	CorrectAnswer      string
	Explanation        string
	OptionExplanations []string
	KeyPoints          []string
	AttendingTip       string
	System, Category   string
	Subject, Disease   string
}

// Quiz is a demo quiz over Questions (indexes into Bank.Questions).
type Quiz struct {
	Title            string
	Mode             string
	TimeLimitMinutes *int
	Published        bool
	Category         string // a quiz category name
	Questions        []int
}

// Bank is the whole demo data set.
type Bank struct {
	Categories     []Category
	Questions      []Question
	QuizCategories []string
	Quizzes        []Quiz
}

// Subjects the demo questions are tagged with.
const (
	SubjectDiagnosis     = "Clinical diagnosis"
	SubjectInvestigation = "Investigations"
	SubjectTherapeutics  = "Therapeutics"
	SubjectMechanism     = "Pathophysiology"
	SubjectComplication  = "Complications"
)

// template asks about one fact of a condition as a multiple-choice question.
type template struct {
	subject string
	fact    func(c *condition) string
	stem    func(c *condition) string
	// why explains an option that is another condition's fact.
	why func(option string, owner *condition) string
	// explain is the explanation of the question.
	explain func(c *condition) string
}

var templates = []template{
	{SubjectDiagnosis, func(c *condition) string { return c.Name },
		func(c *condition) string {
			return fmt.Sprintf("A patient presents with %s. What is the most likely diagnosis?", c.Presentation)
		},
		func(o string, w *condition) string {
			return fmt.Sprintf("%s typically presents with %s.", o, w.Presentation)
		},
		func(c *condition) string {
			return fmt.Sprintf("%s is the classic picture of %s. %s. It is confirmed by %s.",
				upperFirst(c.Presentation), c.Name, c.Mechanism, lowerFirst(c.Investigation))
		}},
	{SubjectInvestigation, func(c *condition) string { return c.Investigation },
		func(c *condition) string {
			return fmt.Sprintf("Which investigation best establishes the diagnosis of %s?", c.Name)
		},
		func(o string, w *condition) string {
			return fmt.Sprintf("This is the key investigation for %s.", w.Name)
		},
		func(c *condition) string {
			return fmt.Sprintf("%s is suspected in a patient with %s; %s establishes it.",
				c.Name, c.Presentation, lowerFirst(c.Investigation))
		}},
	{SubjectTherapeutics, func(c *condition) string { return c.Treatment },
		func(c *condition) string { return fmt.Sprintf("What is the first-line management of %s?", c.Name) },
		func(o string, w *condition) string {
			return fmt.Sprintf("This is the first-line management of %s.", w.Name)
		},
		func(c *condition) string {
			return fmt.Sprintf("First-line management of %s: %s. Treatment targets the cause: %s.",
				c.Name, lowerFirst(c.Treatment), lowerFirst(c.Mechanism))
		}},
	{SubjectMechanism, func(c *condition) string { return c.Mechanism },
		func(c *condition) string { return fmt.Sprintf("What is the underlying mechanism of %s?", c.Name) },
		func(o string, w *condition) string { return fmt.Sprintf("This mechanism underlies %s.", w.Name) },
		func(c *condition) string {
			return fmt.Sprintf("%s results from %s, which explains why patients present with %s.",
				c.Name, lowerFirst(c.Mechanism), c.Presentation)
		}},
	{SubjectComplication, func(c *condition) string { return c.Complication },
		func(c *condition) string {
			return fmt.Sprintf("Which complication is classically associated with %s?", c.Name)
		},
		func(o string, w *condition) string {
			return fmt.Sprintf("This is a classic complication of %s.", w.Name)
		},
		func(c *condition) string {
			return fmt.Sprintf("%s is the complication to anticipate in %s; %s.",
				upperFirst(c.Complication), c.Name, lowerFirst(c.Treatment))
		}},
}

// Generate builds the demo bank. It is deterministic: the same table gives
// the same bank.
func Generate() *Bank {
	rng := rand.New(rand.NewPCG(20240501, 7))
	b := &Bank{QuizCategories: []string{"Timed reviews", "Study sets"}}
	topics := map[string]bool{}
	for _, s := range systems {
		b.Categories = append(b.Categories, Category{Name: s.Name, Description: s.Description, System: s.Name})
	}
	bySystem := map[string][]int{}
	for i := range conditions {
		c := &conditions[i]
		if key := c.System + "/" + c.Topic; !topics[key] {
			topics[key] = true
			b.Categories = append(b.Categories, Category{Name: c.Topic, Parent: c.System,
				Description: fmt.Sprintf("%s questions on %s.", c.System, lowerFirst(c.Topic))})
		}
		for _, t := range templates {
			bySystem[c.System] = append(bySystem[c.System], len(b.Questions))
			b.Questions = append(b.Questions, mcq(rng, c, t))
		}
		b.Questions = append(b.Questions, fillIn(c))
	}
	for _, s := range systems {
		qs := bySystem[s.Name]
		timed := pick(rng, qs, 10)
		limit := 15
		b.Quizzes = append(b.Quizzes,
			Quiz{Title: s.Name + ": timed review", Mode: "timed", TimeLimitMinutes: &limit, Published: true,
				Category: "Timed reviews", Questions: timed},
			Quiz{Title: s.Name + ": study set", Mode: "learning", Published: true, Category: "Study sets",
				Questions: pick(rng, qs, 8)})
	}
	b.Quizzes = append(b.Quizzes, Quiz{Title: "Mixed revision (draft)", Mode: "timed",
		Questions: pick(rng, indexes(len(b.Questions)), 20)})
	return b
}

func mcq(rng *rand.Rand, c *condition, t template) Question {
	answer := t.fact(c)
	type option struct {
		text  string
		owner *condition
	}
	opts := []option{{answer, c}}
	seen := map[string]bool{strings.ToLower(answer): true}
	for _, d := range distractorPool(rng, c) {
		if len(opts) == 4 {
			break
		}
		text := t.fact(d)
		if !seen[strings.ToLower(text)] {
			seen[strings.ToLower(text)] = true
			opts = append(opts, option{text, d})
		}
	}
	rng.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
	q := Question{Type: "mcq", Text: t.stem(c), CorrectAnswer: answer, Explanation: t.explain(c),
		KeyPoints: keyPoints(c), AttendingTip: tip(c), System: c.System, Category: c.Topic,
		Subject: t.subject, Disease: c.Name}
	for _, o := range opts {
		q.Options = append(q.Options, o.text)
		if o.owner == c {
			q.OptionExplanations = append(q.OptionExplanations, "Correct. "+t.why(o.text, c))
		} else {
			q.OptionExplanations = append(q.OptionExplanations, t.why(o.text, o.owner))
		}
	}
	return q
}

// distractorPool lists other conditions, same system first, in a random
// order within each group.
func distractorPool(rng *rand.Rand, c *condition) []*condition {
	var same, other []*condition
	for i := range conditions {
		d := &conditions[i]
		switch {
		case d == c:
		case d.System == c.System:
			same = append(same, d)
		default:
			other = append(other, d)
		}
	}
	rng.Shuffle(len(same), func(i, j int) { same[i], same[j] = same[j], same[i] })
	rng.Shuffle(len(other), func(i, j int) { other[i], other[j] = other[j], other[i] })
	return append(same, other...)
}

func fillIn(c *condition) Question {
	answer := c.Name
	if c.Alias != "" {
		answer += "|" + c.Alias
	}
	return Question{Type: "fill_in", Text: fmt.Sprintf("Name the diagnosis: a patient with %s.", c.Presentation),
		CorrectAnswer: answer,
		Explanation: fmt.Sprintf("This is %s. %s; confirm it with %s.", c.Name, c.Mechanism,
			lowerFirst(c.Investigation)),
		KeyPoints: keyPoints(c), AttendingTip: tip(c), System: c.System, Category: c.Topic,
		Subject: SubjectDiagnosis, Disease: c.Name}
}

func keyPoints(c *condition) []string {
	return []string{
		"Presents with " + c.Presentation + ".",
		"Investigate with " + lowerFirst(c.Investigation) + ".",
		"First line: " + lowerFirst(c.Treatment) + ".",
		"Watch for " + lowerFirst(c.Complication) + ".",
	}
}

func tip(c *condition) string {
	return fmt.Sprintf("When you meet %s, think of %s before anything rarer.", c.Presentation, c.Name)
}

func pick(rng *rand.Rand, from []int, n int) []int {
	cp := append([]int(nil), from...)
	rng.Shuffle(len(cp), func(i, j int) { cp[i], cp[j] = cp[j], cp[i] })
	if len(cp) > n {
		cp = cp[:n]
	}
	return cp
}

func indexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// lowerFirst lowercases a leading capital unless it starts an acronym or a
// name that must keep it (the next letter is also a capital or a digit).
func lowerFirst(s string) string {
	r := []rune(s)
	if len(r) < 2 || !unicode.IsUpper(r[0]) || unicode.IsUpper(r[1]) || unicode.IsDigit(r[1]) || r[1] == '-' {
		return s
	}
	for _, keep := range []string{"Helicobacter", "Streptococcus", "Staphylococcus", "Escherichia", "Plasmodium",
		"Epstein", "Mycobacterium", "Neisseria", "Virchow", "Reed", "Murphy", "Hunter", "Korsakoff"} {
		if strings.HasPrefix(s, keep) {
			return s
		}
	}
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

func upperFirst(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
