package db

import "net/url"

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparseable database url)"
	}
	return u.Redacted()
}
