// Package storage keeps uploaded files in a gocloud.dev bucket: file:// on a
// single machine, s3:// in production. Callers store and pass keys, never
// URLs; the /uploads route turns a key into bytes.
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"time"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/fileblob" // file:// buckets
	_ "gocloud.dev/blob/s3blob"   // s3:// buckets
	"gocloud.dev/gcerrors"

	"github.com/roundsedu/rounds/platform/apperr"
)

// ErrNotFound means no object has the key.
var ErrNotFound = errors.New("storage: not found")

// ErrBadKey means the key is not a clean relative path.
var ErrBadKey = errors.New("storage: invalid key")

// Store is the bucket.
type Store struct{ bucket *blob.Bucket }

// Open opens the bucket at rawURL. A relative file:// path is taken from the
// working directory and created when missing.
func Open(ctx context.Context, rawURL string) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	if u.Scheme == "file" {
		dir := u.Host + u.Path // file://.data/uploads parses host ".data"
		if !filepath.IsAbs(dir) {
			if dir, err = filepath.Abs(dir); err != nil {
				return nil, err
			}
		}
		q := u.Query()
		q.Set("create_dir", "1")
		q.Set("metadata", "skip")
		rawURL = (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir), RawQuery: q.Encode()}).String()
	}
	b, err := blob.OpenBucket(ctx, rawURL)
	if err != nil {
		return nil, fmt.Errorf("storage: open: %w", err)
	}
	return &Store{bucket: b}, nil
}

// Close releases the bucket.
func (s *Store) Close() error { return s.bucket.Close() }

// CleanKey validates a key: relative, slash-separated, no dot segments.
func CleanKey(key string) (string, error) {
	if key == "" || strings.HasPrefix(key, "/") || strings.Contains(key, "\\") || strings.ContainsRune(key, 0) {
		return "", ErrBadKey
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", ErrBadKey
		}
	}
	return path.Clean(key), nil
}

// Put streams r into key. A failure of the bucket (not of r) is a 503
// unavailable wrapping the cause: the client did nothing wrong and may
// retry. Nothing is left at key when Put fails.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, contentType string) (int64, error) {
	key, err := CleanKey(key)
	if err != nil {
		return 0, err
	}
	// Cancelling the writer's context is how gocloud aborts a write: Close
	// then commits nothing.
	wctx, abort := context.WithCancel(ctx)
	defer abort()
	w, err := s.bucket.NewWriter(wctx, key, &blob.WriterOptions{ContentType: contentType})
	if err != nil {
		return 0, unavailable(err)
	}
	src := &readErr{r: r}
	n, err := io.Copy(w, src)
	if err != nil {
		abort()
		_ = w.Close()
		if src.err != nil {
			return n, err
		}
		return n, unavailable(err)
	}
	if err := w.Close(); err != nil {
		return n, unavailable(err)
	}
	return n, nil
}

// readErr remembers the source's error, to tell it from the bucket's.
type readErr struct {
	r   io.Reader
	err error
}

func (r *readErr) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// unavailable is the bucket failing a write.
func unavailable(cause error) error {
	return fmt.Errorf("storage: write: %w: %w", cause, &apperr.Error{Code: apperr.Unavailable,
		RetryAfter: 5 * time.Second, Message: "file storage is unavailable: try again shortly"})
}

// Open streams the object at key; the caller closes it.
func (s *Store) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	key, err := CleanKey(key)
	if err != nil {
		return nil, err
	}
	r, err := s.bucket.NewReader(ctx, key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, ErrNotFound
	}
	return r, err
}

// Size reports the object's length.
func (s *Store) Size(ctx context.Context, key string) (int64, error) {
	key, err := CleanKey(key)
	if err != nil {
		return 0, err
	}
	a, err := s.bucket.Attributes(ctx, key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, err
	}
	return a.Size, nil
}

// Delete removes key; a missing key is not an error (deletes are retried).
func (s *Store) Delete(ctx context.Context, key string) error {
	key, err := CleanKey(key)
	if err != nil {
		return err
	}
	err = s.bucket.Delete(ctx, key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil
	}
	return err
}
