package anki

import (
	"fmt"
	"regexp"
	"strings"

	"gorm.io/gorm"
)

// maxSchemaObjects bounds the tables and indexes a collection may declare
// (Anki's schema 18 has about thirty).
const maxSchemaObjects = 200

// checkSchema refuses a collection whose schema would run the file's own
// SQL while it is read: a view or a trigger anywhere, or a table the
// reader needs that is a view, a virtual table or has generated columns
// (a view named notes can build hundreds of MiB of rows from a few KiB
// of file). Only real tables hold what a row holds, bounded by the file.
func checkSchema(db *gorm.DB, tables ...string) error {
	var objs []struct{ Type, Name, SQL string }
	err := db.Raw(`SELECT type, name, substr(coalesce(sql, ''), 1, 64) AS sql FROM sqlite_master LIMIT ?`,
		maxSchemaObjects+1).Scan(&objs).Error
	if err != nil {
		return ErrMalformed{fmt.Sprintf("the collection's schema cannot be read: %v", err)}
	}
	if len(objs) > maxSchemaObjects {
		return ErrHostile{fmt.Sprintf("the collection declares more than %d tables and indexes", maxSchemaObjects)}
	}
	kinds := map[string]string{}
	for _, o := range objs {
		if o.Type == "view" || o.Type == "trigger" {
			return ErrHostile{fmt.Sprintf("the collection declares a %s (%q): a collection holds tables only, and a %s runs the file's own SQL",
				o.Type, o.Name, o.Type)}
		}
		kind := o.Type
		if o.Type == "table" && strings.HasPrefix(strings.ToUpper(strings.Join(strings.Fields(o.SQL), " ")), "CREATE VIRTUAL TABLE") {
			kind = "virtual table"
		}
		kinds[o.Name] = kind
	}
	for _, t := range tables {
		switch kinds[t] {
		case "table":
		case "":
			return ErrMalformed{fmt.Sprintf("the collection has no %s table", t)}
		default:
			return ErrHostile{fmt.Sprintf("the collection's %s is a %s, not a table", t, kinds[t])}
		}
		var generated int
		if err := db.Raw(`SELECT count(*) FROM pragma_table_xinfo(?) WHERE hidden IN (2, 3)`, t).Scan(&generated).Error; err != nil {
			return ErrMalformed{fmt.Sprintf("the collection's %s table cannot be read: %v", t, err)}
		}
		if generated > 0 {
			return ErrHostile{fmt.Sprintf("the collection's %s table has generated columns, which run the file's own SQL", t)}
		}
	}
	return nil
}

// budget bounds what the reader takes from the collection: each row (a
// note's fields, a note type's configuration) and all rows together.
type budget struct {
	row, left int64
}

// take counts a row of n bytes; what names the row in the refusal.
func (b *budget) take(n int64, what string) error {
	if n > b.row {
		return ErrTooLarge{fmt.Sprintf("%s holds %d bytes, more than the %d a row may", what, n, b.row)}
	}
	if b.left -= n; b.left < 0 {
		return ErrTooLarge{"the collection's rows add up to more than the reader takes from one package"}
	}
	return nil
}

// unicaseDecl is Anki's collation in a declaration ("collate unicase",
// "COLLATE unicase" in schema 17's tags table).
var unicaseDecl = regexp.MustCompile(`(?i)\bcollate\s+unicase\b`)

// renameUnicase gives the reader's private copy of a collection SQLite's
// NOCASE collation wherever Anki declares its own "unicase", which only
// Anki registers: without it SQLite finds no way to read a table that
// declares it (Anki's fields and templates tables answer "no query
// solution"). It runs after checkSchema, on the copy only, changing the
// declarations' text and nothing else; the copy is then opened read-only
// again. NOCASE orders ASCII names as unicase does.
func renameUnicase(path string) error {
	conn, err := open("file:" + path + "?_pragma=trusted_schema(0)&_pragma=journal_mode(off)")
	if err != nil {
		return ErrMalformed{fmt.Sprintf("the collection cannot be opened: %v", err)}
	}
	defer Close(conn)
	var objs []struct{ Name, SQL string }
	err = conn.Raw(`SELECT name, sql FROM sqlite_master WHERE sql LIKE '%unicase%' LIMIT ?`, maxSchemaObjects).Scan(&objs).Error
	if err != nil || len(objs) == 0 {
		return err
	}
	return conn.Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`PRAGMA writable_schema = ON`).Error; err != nil {
			return err
		}
		for _, o := range objs {
			err := tx.Exec(`UPDATE sqlite_master SET sql = ? WHERE name = ?`, unicaseDecl.ReplaceAllString(o.SQL, "COLLATE NOCASE"), o.Name).Error
			if err != nil {
				return err
			}
		}
		return tx.Exec(`PRAGMA writable_schema = OFF`).Error
	})
}
