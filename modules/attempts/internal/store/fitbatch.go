package store

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// fitBatch writes the saves as the JSON array SaveManyIfFits reads with
// jsonb_to_recordset, field by field with jsontext's string quoting:
// encoding/json would reflect over every row, the hottest write's biggest
// client-side cost. Text that is not UTF-8 is an error (the body's decode
// and the device header's check let none in). started_at travels as
// microseconds since the epoch (no text date Postgres could refuse, such
// as year 0).
//
// Each save's answers go in the order jsonb keeps an object's keys
// (shorter first, then bytewise): Postgres sorts them as it reads them,
// and finds them sorted at a glance instead of sorting each map's random
// order, which cost it about as much as the rest of the answers' reading.
// A save whose AnswersJSON is given (the body's own text, already in that
// order) is written with it as it is; another has its map sorted here.
func fitBatch(saves []*FitSave) (string, error) {
	n, most := 0, 0
	for _, f := range saves {
		n += 256 + len(f.Progress.Device) + len(f.AnswersJSON) + 20*len(f.Progress.Flagged)
		if f.AnswersJSON == "" {
			for k, v := range f.Progress.Answers {
				n += len(k) + len(v) + 8
			}
			most = max(most, len(f.Progress.Answers))
		}
	}
	b := make([]byte, 0, n)
	keys := make([]string, 0, most)
	b = append(b, '[')
	for i, f := range saves {
		p := f.Progress
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"attempt_id":`...)
		b = strconv.AppendInt(b, p.AttemptID, 10)
		b = append(b, `,"user_id":`...)
		b = strconv.AppendInt(b, p.UserID, 10)
		b = append(b, `,"quiz_id":`...)
		b = strconv.AppendInt(b, p.QuizID, 10)
		b = append(b, `,"answers":`...)
		var err error
		if f.AnswersJSON != "" {
			b = append(b, f.AnswersJSON...)
		} else if b, err = appendAnswers(b, p.Answers, keys); err != nil {
			return "", err
		}
		b = append(b, `,"current_idx":`...)
		b = strconv.AppendInt(b, int64(p.CurrentIdx), 10)
		b = append(b, `,"mode":`...)
		if b, err = appendOptString(b, p.Mode); err != nil {
			return "", err
		}
		b = append(b, `,"voice":`...)
		if b, err = appendOptString(b, p.Voice); err != nil {
			return "", err
		}
		b = append(b, `,"time_left":`...)
		if b, err = appendOptFloat(b, p.TimeLeft); err != nil {
			return "", err
		}
		b = append(b, `,"started_at":`...)
		if p.StartedAt == nil {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendInt(b, p.StartedAt.UnixMicro(), 10)
		}
		b = append(b, `,"total_time":`...)
		if b, err = appendOptFloat(b, p.TotalTime); err != nil {
			return "", err
		}
		b = append(b, `,"device":`...)
		if b, err = jsontext.AppendQuote(b, p.Device); err != nil {
			return "", err
		}
		b = append(b, `,"revision":`...)
		if p.Revision == nil {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendInt(b, *p.Revision, 10)
		}
		b = append(b, `,"flagged":`...)
		b = appendFlags(b, p.Flagged)
		b = append(b, '}')
	}
	return string(append(b, ']')), nil
}

// appendFlags writes the flagged question ids as a JSON array, or null
// when the save sent none (the stored ones stay).
func appendFlags(b []byte, ids []int64) []byte {
	if ids == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return append(b, ']')
}

// appendAnswers writes answers as a JSON object, keys in jsonb's order
// (keys is scratch space).
func appendAnswers(b []byte, answers AnswerMap, keys []string) ([]byte, error) {
	keys = keys[:0]
	for k := range answers {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, jsonbKeyOrder)
	b = append(b, '{')
	for j, k := range keys {
		if j > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = jsontext.AppendQuote(b, k); err != nil {
			return nil, err
		}
		b = append(b, ':')
		if b, err = jsontext.AppendQuote(b, answers[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// jsonbKeyOrder is the order of a jsonb object's keys: by length, then
// byte by byte.
func jsonbKeyOrder(x, y string) int {
	if len(x) != len(y) {
		return len(x) - len(y)
	}
	return strings.Compare(x, y)
}

func appendOptString(b []byte, s *string) ([]byte, error) {
	if s == nil {
		return append(b, "null"...), nil
	}
	return jsontext.AppendQuote(b, *s)
}

// appendOptFloat writes x as the shortest decimal that reads back as x.
func appendOptFloat(b []byte, x *float64) ([]byte, error) {
	if x == nil {
		return append(b, "null"...), nil
	}
	if math.IsInf(*x, 0) || math.IsNaN(*x) {
		return nil, fmt.Errorf("store: %v is not a JSON number", *x)
	}
	return strconv.AppendFloat(b, *x, 'g', -1, 64), nil
}
