package store

import (
	"context"
	"encoding/json"
	"strconv"
	"time"
)

// Document statuses.
const (
	DocProcessing = "processing"
	DocReady      = "ready"
	DocFailed     = "failed"
)

// Document is a row of drafts.documents.
type Document struct {
	ID                  int64 `gorm:"primaryKey"`
	UserID              int64
	Filename            string
	OriginalFilename    string
	StorageKey          string
	SizeBytes           int64
	Status              string
	TotalPages          int
	ErrorMessage        *string
	ProcessingRun       int
	ProcessingStartedAt time.Time
	ProcessingSteps     []byte `gorm:"type:jsonb"`
	UploadedAt          time.Time
	UpdatedAt           time.Time
}

// TableName places the row in the module's schema.
func (Document) TableName() string { return "drafts.documents" }

// Step is one line of a document's processing history.
type Step struct {
	Name   string    `json:"name"`
	Detail string    `json:"detail,omitempty"`
	At     time.Time `json:"at"`
}

// Steps decodes the processing history.
func (d *Document) Steps() []Step {
	var steps []Step
	_ = json.Unmarshal(d.ProcessingSteps, &steps)
	return steps
}

// Page is a row of drafts.document_pages.
type Page struct {
	DocumentID int64 `gorm:"primaryKey"`
	PageNumber int   `gorm:"primaryKey"`
	Text       string
}

// TableName places the row in the module's schema.
func (Page) TableName() string { return "drafts.document_pages" }

func stepJSON(name, detail string) string {
	b, _ := json.Marshal([]Step{{Name: name, Detail: detail, At: time.Now().UTC()}})
	return string(b)
}

// CreateDocument inserts a document that starts processing, with its
// first step.
func (s *Store) CreateDocument(ctx context.Context, d *Document, step, detail string) error {
	d.Status = DocProcessing
	d.ProcessingRun = 1
	d.ProcessingSteps = []byte(stepJSON(step, detail))
	return s.db.Conn(ctx).Omit("ProcessingStartedAt", "UploadedAt", "UpdatedAt").Create(d).Error
}

// Document loads one document.
func (s *Store) Document(ctx context.Context, id int64) (*Document, error) {
	var d Document
	if err := s.db.Conn(ctx).Take(&d, id).Error; err != nil {
		return nil, err
	}
	return &d, nil
}

// LockDocument loads one document and locks it until the transaction ends.
func (s *Store) LockDocument(ctx context.Context, id int64) (*Document, error) {
	var d Document
	if err := s.db.Locked(ctx).Take(&d, id).Error; err != nil {
		return nil, err
	}
	return &d, nil
}

// Documents lists documents newest first; ownerID narrows to one uploader.
func (s *Store) Documents(ctx context.Context, ownerID *int64, limit, offset int) ([]Document, error) {
	q := s.db.Conn(ctx).Order("uploaded_at DESC, id DESC").Limit(limit).Offset(offset)
	if ownerID != nil {
		q = q.Where("user_id = ?", *ownerID)
	}
	var out []Document
	return out, q.Find(&out).Error
}

// CountDocuments counts every document.
func (s *Store) CountDocuments(ctx context.Context) (int, error) {
	var n int64
	err := s.db.Conn(ctx).Model(&Document{}).Count(&n).Error
	return int(n), err
}

// AppendStep adds a step to the history of the given processing run; a
// step of a superseded run is dropped.
func (s *Store) AppendStep(ctx context.Context, id int64, run int, name, detail string) error {
	return s.db.Conn(ctx).Exec(`UPDATE drafts.documents
		SET processing_steps = processing_steps || ?::jsonb, updated_at = now()
		WHERE id = ? AND processing_run = ?`, stepJSON(name, detail), id, run).Error
}

// SavePages replaces the document's page text and marks it ready, inside
// the caller's transaction (the document row is locked by the caller).
func (s *Store) SavePages(ctx context.Context, id int64, texts []string) error {
	conn := s.db.Conn(ctx)
	if err := conn.Where("document_id = ?", id).Delete(&Page{}).Error; err != nil {
		return err
	}
	// One INSERT per ~1 MiB of text: a handful of statements for a normal
	// paper, and never one giant statement for a text-dense file.
	var batch []Page
	size := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := conn.Create(&batch).Error
		batch, size = batch[:0], 0
		return err
	}
	for i, t := range texts {
		batch = append(batch, Page{DocumentID: id, PageNumber: i + 1, Text: t})
		if size += len(t); size >= pageInsertBytes || len(batch) >= 500 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return conn.Exec(`UPDATE drafts.documents
		SET status = 'ready', total_pages = ?, error_message = NULL,
			processing_steps = processing_steps || ?::jsonb, updated_at = now()
		WHERE id = ?`, len(texts), stepJSON("ready", pagesDetail(len(texts))), id).Error
}

// pageInsertBytes bounds the text one INSERT carries.
const pageInsertBytes = 1 << 20

func pagesDetail(n int) string {
	if n == 1 {
		return "1 page"
	}
	return strconv.Itoa(n) + " pages"
}

// FailProcessing records why the run failed; a superseded run, or one
// that already ended (or was repaired), changes nothing.
func (s *Store) FailProcessing(ctx context.Context, id int64, run int, msg string) error {
	return s.db.Conn(ctx).Exec(`UPDATE drafts.documents
		SET status = 'failed', error_message = ?,
			processing_steps = processing_steps || ?::jsonb, updated_at = now()
		WHERE id = ? AND processing_run = ? AND status = 'processing'`, msg, stepJSON("failed", msg), id, run).Error
}

// StartRun moves a locked document back to processing under the next run
// number (updating d).
func (s *Store) StartRun(ctx context.Context, d *Document, step, detail string) error {
	d.ProcessingRun++
	res := s.db.Conn(ctx).Exec(`UPDATE drafts.documents
		SET status = 'processing', error_message = NULL, processing_run = ?,
			processing_started_at = now(), processing_steps = processing_steps || ?::jsonb, updated_at = now()
		WHERE id = ?`, d.ProcessingRun, stepJSON(step, detail), d.ID)
	d.Status = DocProcessing
	return res.Error
}

// DeleteDocument removes the document with its pages and sections.
func (s *Store) DeleteDocument(ctx context.Context, id int64) error {
	return s.db.Conn(ctx).Delete(&Document{}, id).Error
}

// RepairStuck moves documents processing since before cutoff to ready,
// noting why, and returns their ids.
func (s *Store) RepairStuck(ctx context.Context, cutoff time.Time, note string) ([]int64, error) {
	var ids []int64
	err := s.db.Conn(ctx).Raw(`UPDATE drafts.documents
		SET status = 'ready', error_message = ?,
			processing_steps = processing_steps || ?::jsonb, updated_at = now()
		WHERE status = 'processing' AND processing_started_at < ?
		RETURNING id`, note, stepJSON("repaired", note), cutoff).Scan(&ids).Error
	return ids, err
}

// PageTexts returns the recorded text of pages first..last in order.
func (s *Store) PageTexts(ctx context.Context, id int64, first, last int) ([]Page, error) {
	var out []Page
	err := s.db.Conn(ctx).Where("document_id = ? AND page_number BETWEEN ? AND ?", id, first, last).
		Order("page_number").Find(&out).Error
	return out, err
}
