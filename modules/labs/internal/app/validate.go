package app

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/roundsedu/rounds/platform/apperr"
)

// Input is the reference record as a moderator sends it (POST and PUT).
// The pointers are the optional fields: nil means not given.
type Input struct {
	Name, Group, ReferenceRange, Units, AgeGroup, Specimen, Source string

	ConventionalRange, ConventionalUnits *string
	SourceURL                            *string
	ArticleID                            *int64
	ArticleSectionID                     *string
	IsPublished                          bool
}

// The field table's length limits (characters, after stripping).
const (
	maxName             = 120
	maxGroup            = 60
	maxReferenceRange   = 250
	maxUnits            = 80
	maxAgeGroup         = 120
	maxSpecimen         = 120
	maxSource           = 500
	maxSourceURL        = 2000
	maxArticleSectionID = 64
)

// clean strips and checks every field of in against the field table and
// returns the record to store, or every refusal (one per field, named as
// the body names it).
func clean(in Input) (Value, []apperr.Field) {
	var bad []apperr.Field
	refuse := func(field, format string, args ...any) {
		bad = append(bad, apperr.Field{Field: "body." + field, Message: fmt.Sprintf(format, args...), Type: "value_error"})
	}
	required := func(field, v string, max int) string {
		v = strings.TrimSpace(v)
		switch {
		case v == "":
			refuse(field, "%s is required and must not be blank", field)
		case !fits(v, max):
			refuse(field, "%s must be at most %d characters (got %d)", field, max, utf8.RuneCountInString(v))
		case strings.ContainsRune(v, 0):
			refuse(field, "%s must not contain NUL characters", field)
		}
		return v
	}
	optional := func(field string, v *string, max int) *string {
		if v == nil {
			return nil
		}
		s := strings.TrimSpace(*v)
		switch {
		case s == "":
			return nil
		case !fits(s, max):
			refuse(field, "%s must be at most %d characters (got %d)", field, max, utf8.RuneCountInString(s))
		case strings.ContainsRune(s, 0):
			refuse(field, "%s must not contain NUL characters", field)
		}
		return &s
	}

	v := Value{
		Name:           required("name", in.Name, maxName),
		GroupName:      required("group", in.Group, maxGroup),
		ReferenceRange: required("reference_range", in.ReferenceRange, maxReferenceRange),
		Units:          required("units", in.Units, maxUnits),
		AgeGroup:       required("age_group", in.AgeGroup, maxAgeGroup),
		Specimen:       required("specimen", in.Specimen, maxSpecimen),
		Source:         required("source", in.Source, maxSource),
		IsPublished:    in.IsPublished,
	}
	v.ConventionalRange = optional("conventional_range", in.ConventionalRange, maxReferenceRange)
	v.ConventionalUnits = optional("conventional_units", in.ConventionalUnits, maxUnits)
	switch {
	case v.ConventionalRange != nil && v.ConventionalUnits == nil:
		refuse("conventional_units", "conventional_units is required when conventional_range is given")
	case v.ConventionalRange == nil && v.ConventionalUnits != nil:
		refuse("conventional_range", "conventional_range is required when conventional_units is given")
	}
	if v.SourceURL = optional("source_url", in.SourceURL, maxSourceURL); v.SourceURL != nil && !isWebURL(*v.SourceURL) {
		refuse("source_url", "source_url must be an absolute http or https URL with a host")
	}
	v.ArticleID = in.ArticleID
	if v.ArticleSectionID = optional("article_section_id", in.ArticleSectionID, maxArticleSectionID); v.ArticleSectionID != nil && v.ArticleID == nil {
		refuse("article_section_id", "article_section_id requires article_id")
	}
	return v, bad
}

// fits counts characters, not bytes, against a limit.
func fits(s string, max int) bool { return utf8.RuneCountInString(s) <= max }

// isWebURL accepts what a browser can open as a citation link.
func isWebURL(s string) bool {
	if strings.ContainsAny(s, " \t\r\n\x00") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "" && u.Opaque == ""
}

// invalid gathers field refusals into one 422.
func invalid(fields []apperr.Field) *apperr.Error {
	msgs := make([]string, len(fields))
	for i, f := range fields {
		msgs[i] = f.Message
	}
	return &apperr.Error{Code: apperr.Invalid, Message: strings.Join(msgs, "; "), Fields: fields}
}
