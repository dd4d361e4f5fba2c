package httpapi

// Page is the limit/offset pair of a listing (limit 1 to 200, default 50):
// embed it in an operation's input struct.
type Page struct {
	Limit  int `query:"limit" default:"50" minimum:"1" maximum:"200" doc:"page size"`
	Offset int `query:"offset" default:"0" minimum:"0" doc:"rows to skip"`
}
