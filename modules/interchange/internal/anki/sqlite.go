package anki

import (
	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// open opens a collection file through gorm on glebarez/sqlite (pure Go,
// no cgo): the one database path the house allows, on a file format rather
// than the service's database. The logger is off: the reader reports its
// own errors, and a hostile file's queries are no news for the server log.
func open(dsn string) (*gorm.DB, error) {
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{Logger: logger.Discard, SkipDefaultTransaction: true})
	if err != nil {
		return nil, err
	}
	conn, err := db.DB()
	if err != nil {
		return nil, err
	}
	conn.SetMaxOpenConns(1) // one file, one connection: a transaction sees its own writes
	return db, nil
}

// Close closes a collection opened here.
func Close(db *gorm.DB) error {
	conn, err := db.DB()
	if err != nil {
		return err
	}
	return conn.Close()
}
