package reader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roundsedu/rounds/modules/drafts/internal/pdfdoc"
)

// OCR renders a page with poppler's pdftoppm (grayscale, 300 dpi, the
// long side capped at maxOCRPixels, an A4 page's at 300 dpi) and reads
// the picture with Tesseract, both as programs this child starts: they
// inherit its memory and CPU limits, and each has the OCR deadline. One
// Tesseract thread: the machine's cores belong to every worker.
const (
	ocrDPI       = 300
	maxOCRPixels = 3500
	maxOCROutput = 4 << 20
)

// Available reports whether this machine has the OCR programs.
func Available() error {
	for _, tool := range []string{"pdftoppm", "tesseract"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%w: OCR is not available on this server (%s is not installed; poppler-utils and tesseract-ocr provide it)",
				ErrOCR, tool)
		}
	}
	return nil
}

// ocr returns page p's text as Tesseract reads it; w and h are the
// page's size in points.
func (c *child) ocr(p int, w, h float64) (string, error) {
	if err := Available(); err != nil {
		return "", err
	}
	dpi := float64(ocrDPI)
	if long := max(w, h); long*dpi/72 > maxOCRPixels {
		dpi = maxOCRPixels * 72 / long
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.req.OCRTimeout)
	defer cancel()
	base := filepath.Join(c.req.Scratch, fmt.Sprintf("page-%d", p))
	defer os.Remove(base + ".png")
	page := strconv.Itoa(p)
	if _, err := tool(ctx, p, "pdftoppm", "-r", strconv.Itoa(max(int(dpi), 1)), "-f", page, "-l", page,
		"-gray", "-png", "-singlefile", c.path, base); err != nil {
		return "", err
	}
	lang := c.req.OCRLanguage
	if lang == "" {
		lang = "eng"
	}
	out, err := tool(ctx, p, "tesseract", base+".png", "stdout", "-l", lang)
	if err != nil {
		return "", err
	}
	return pdfdoc.Tidy(out), nil
}

// tool runs one OCR program, keeping at most maxOCROutput of its output.
func tool(ctx context.Context, page int, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	var out, errOut limited
	out.n, errOut.n = maxOCROutput, 4<<10
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return "", fmt.Errorf("%w: OCR of page %d took longer than the OCR deadline (drafts.ocr_timeout)", ErrOCR, page)
	case err != nil:
		msg := strings.TrimSpace(errOut.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			msg = err.Error()
		}
		return "", fmt.Errorf("%w: %s failed on page %d: %s", ErrOCR, name, page, msg)
	}
	return out.String(), nil
}

// limited keeps the first n bytes written to it.
type limited struct {
	bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.Len(); room > 0 {
		l.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
