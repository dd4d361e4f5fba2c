package httpapi

import "strconv"

// Page is the limit/offset pair of a listing (limit 1 to 200, default 50):
// embed it in an operation's input struct.
type Page struct {
	Limit  int `query:"limit" default:"50" minimum:"1" maximum:"200" doc:"page size"`
	Offset int `query:"offset" default:"0" minimum:"0" doc:"rows to skip"`
}

// Listing is a page of a listing's response: the items, and in
// X-Total-Count how many there are in all.
type Listing[T any] struct {
	Total string `header:"X-Total-Count"`
	Body  []T
}

// Listed is a Listing of items already shaped.
func Listed[T any](items []T, total int64) *Listing[T] {
	return &Listing[T]{Total: strconv.FormatInt(total, 10), Body: items}
}

// ListOf shapes a page of rows into a Listing.
func ListOf[R, T any](rows []R, total int64, shape func(*R) T) *Listing[T] {
	items := make([]T, len(rows))
	for i := range rows {
		items[i] = shape(&rows[i])
	}
	return Listed(items, total)
}
