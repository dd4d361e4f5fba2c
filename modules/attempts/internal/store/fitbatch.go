package store

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// fitBatch writes the saves as the JSON array SaveManyIfFits reads with
// jsonb_to_recordset, by hand: encoding/json would reflect over every row
// and sort every answer map, the hottest write's biggest client-side cost.
// answered is the number of answers; started_at travels as microseconds
// since the epoch (no text date Postgres could refuse, such as year 0).
func fitBatch(saves []*FitSave) (string, error) {
	n := 0
	for _, f := range saves {
		n += 256 + len(f.Progress.Device)
		for k, v := range f.Progress.Answers {
			n += len(k) + len(v) + 8
		}
	}
	b := make([]byte, 0, n)
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
		b = append(b, `,"answered":`...)
		b = strconv.AppendInt(b, int64(len(p.Answers)), 10)
		b = append(b, `,"answers":{`...)
		first := true
		for k, v := range p.Answers {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = appendJSONString(b, v)
		}
		b = append(b, `},"current_idx":`...)
		b = strconv.AppendInt(b, int64(p.CurrentIdx), 10)
		b = append(b, `,"mode":`...)
		b = appendOptString(b, p.Mode)
		b = append(b, `,"voice":`...)
		b = appendOptString(b, p.Voice)
		var err error
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
		b = appendJSONString(b, p.Device)
		b = append(b, `,"revision":`...)
		if p.Revision == nil {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendInt(b, *p.Revision, 10)
		}
		b = append(b, '}')
	}
	return string(append(b, ']')), nil
}

func appendOptString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
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

const hexDigits = "0123456789abcdef"

// appendJSONString writes s as a JSON string under encoding/json's rules:
// quote and backslash escaped, control characters as \n, \r, \t or \u00XX,
// bytes that are not UTF-8 as U+FFFD; everything else as it is (jsonb
// keeps the text, not the escapes, so HTML escaping is not needed).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			b = append(append(b, s[start:i]...), `\ufffd`...)
			i++
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	return append(append(b, s[start:]...), '"')
}
