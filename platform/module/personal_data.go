package module

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"path"
	"time"

	"gorm.io/gorm"

	"github.com/roundsedu/rounds/platform/db"
)

// PersonalData is offered by every module that keeps rows a person owns
// (their attempts, notes, reviews, reports...). The module serving a
// person's export asks all of them (NeedAll) and hands each its own part of
// the archive, so a new module joins the export by implementing this in its
// own personal_data.go, with no central edit.
type PersonalData interface {
	Module
	// ExportPersonalData writes what userID owns here, and nothing of
	// anyone else's, as JSON files of x. It runs inside the read-only
	// snapshot the caller holds in ctx (one for the whole export).
	ExportPersonalData(ctx context.Context, userID int64, x *Export) error
	// ForgetPersonalData removes what userID owns here. Identity runs it
	// in each module's consumer group (<module>.forget_user) when its
	// user_deleted event arrives, inside the handler's transaction; a
	// second run changes nothing (events may be delivered twice).
	ForgetPersonalData(ctx context.Context, userID int64) error
}

// Snapshot runs an export in one read-only transaction that sees the
// database as it was when it began, so its files agree with each other
// however long the writing takes.
func Snapshot(ctx context.Context, d *db.DB, fn func(ctx context.Context) error) error {
	return d.Tx(ctx, func(ctx context.Context) error {
		if err := d.Conn(ctx).Exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").Error; err != nil {
			return err
		}
		return fn(ctx)
	})
}

// Archive is one person's export: a zip of JSON files, each compressed and
// sent as it is written, so a long history never sits whole in memory.
type Archive struct {
	zw    *zip.Writer
	open  *List
	files []string
	at    time.Time
}

// NewArchive starts an archive on w; at dates its files.
func NewArchive(w io.Writer, at time.Time) *Archive {
	return &Archive{zw: zip.NewWriter(w), at: at}
}

// Module is the part of the archive one module writes: its files go under
// a folder of its name.
func (a *Archive) Module(name string) *Export { return &Export{a: a, dir: name} }

// Files lists the files written so far.
func (a *Archive) Files() []string { return a.files }

// Close ends the archive (its directory is written last: an archive whose
// writing failed half-way has none and no unzip tool takes it for whole).
func (a *Archive) Close() error {
	if a.open != nil {
		return errListOpen
	}
	return a.zw.Close()
}

var errListOpen = errors.New("module: an export list was left open")

func (a *Archive) create(name string) (io.Writer, error) {
	if a.open != nil {
		return nil, errListOpen
	}
	a.files = append(a.files, name)
	return a.zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: a.at})
}

// Export is one module's folder of an archive.
type Export struct {
	a   *Archive
	dir string
}

// Object writes <module>/<name>.json holding v.
func (x *Export) Object(name string, v any) error {
	w, err := x.a.create(path.Join(x.dir, name+".json"))
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// List starts <module>/<name>.json as a JSON array whose elements are
// written one at a time by Add; Close ends it (nothing else may be written
// to the archive while it is open).
func (x *Export) List(name string) (*List, error) {
	w, err := x.a.create(path.Join(x.dir, name+".json"))
	if err != nil {
		return nil, err
	}
	if _, err := io.WriteString(w, "["); err != nil {
		return nil, err
	}
	l := &List{a: x.a, w: w}
	x.a.open = l
	return l, nil
}

// List is a JSON array being written.
type List struct {
	a *Archive
	w io.Writer
	n int
}

// Add appends v.
func (l *List) Add(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	sep := ",\n"
	if l.n == 0 {
		sep = "\n"
	}
	l.n++
	if _, err := io.WriteString(l.w, sep); err != nil {
		return err
	}
	_, err = l.w.Write(b)
	return err
}

// Close ends the array.
func (l *List) Close() error {
	l.a.open = nil
	end := "]\n"
	if l.n > 0 {
		end = "\n]\n"
	}
	_, err := io.WriteString(l.w, end)
	return err
}

// Rows writes <module>/<name>.json as the array of the rows q selects, each
// scanned into an R (a plain struct whose JSON tags are the file's fields,
// whose field names match the selected columns) and written before the next
// is read: one row in memory at a time, however long the history.
func Rows[R any](x *Export, name string, q *gorm.DB) error {
	rows, err := q.Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	l, err := x.List(name)
	if err != nil {
		return err
	}
	for rows.Next() {
		var r R
		if err := q.ScanRows(rows, &r); err != nil {
			return err
		}
		if err := l.Add(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return l.Close()
}
