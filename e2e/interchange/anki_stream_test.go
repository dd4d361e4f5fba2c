package interchange_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/modules/interchange/ankifixtures"
)

// assetPath is where the suite's file storage keeps a media asset's bytes.
func assetPath(assetID int64) string {
	var key string
	Expect(h.App.DB.Conn(context.Background()).Raw("SELECT path FROM media.assets WHERE id = ?", assetID).
		Scan(&key).Error).To(Succeed())
	path, err := filepath.EvalSymlinks(filepath.Join(strings.TrimPrefix(h.Config.Storage.URL, "file://"), filepath.FromSlash(key)))
	Expect(err).NotTo(HaveOccurred())
	Expect(path).To(BeARegularFile())
	return path
}

// openFiles counts this process's open files at path (the app runs in the
// test's process).
func openFiles(path string) int {
	fds, err := os.ReadDir("/proc/self/fd")
	Expect(err).NotTo(HaveOccurred())
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink("/proc/self/fd/" + fd.Name()); err == nil && target == path {
			n++
		}
	}
	return n
}

var _ = Describe("Anki package export", func() {
	// Issue 33, point 11: the package was built whole in a buffer before
	// its first byte was sent, every picture of the deck held in memory at
	// once. It streams: the collection is written first (every refusal
	// comes before the status), then each picture is read from storage in
	// its turn. The test proves the order: the deck's last picture is a
	// pipe that yields its bytes only once the client holds the answer's
	// status and the package's beginning.
	It("sends the package's beginning before it reads the last picture", func() {
		p := ankifixtures.Package{DeckName: "Streamed", Media: map[string]string{"0": "first.png", "1": "last.png"},
			Files: map[string][]byte{"0": pngOf(30), "1": pngOf(60)}}
		for i, name := range []string{"first.png", "last.png"} {
			p.Notes = append(p.Notes, ankifixtures.Note{Model: ankifixtures.Basic,
				Fields: []string{fmt.Sprintf(`Picture %d <img src="%s">`, i, name), "Back"}, Ords: []int{0}})
		}
		res := importApkg(mod, fmt.Sprintf("category_id=%d", newCategory("Streamed pictures")), apkg(p))
		Expect(res).To(HaveStatus(201))
		deck := int64(res.Map()["deck_id"].(float64))
		cards := deckCards(deck)
		Expect(cards).To(HaveLen(2))

		// The first picture grows to 1 MiB of noise, more than any buffer
		// between the handler and the client holds; the last becomes a pipe.
		first := make([]byte, 1<<20)
		_, _ = rand.Read(first)
		Expect(os.WriteFile(assetPath(int64(cards[0]["picture_id"].(float64))), first, 0o600)).To(Succeed())
		last := make([]byte, 64<<10)
		_, _ = rand.Read(last)
		pipe := assetPath(int64(cards[1]["picture_id"].(float64)))
		Expect(os.Remove(pipe)).To(Succeed())
		Expect(syscall.Mkfifo(pipe, 0o600)).To(Succeed())

		// The legacy layout stores pictures as they are (the latest compresses
		// each with zstd), so the package's files can be compared to them;
		// both layouts are streamed the same way.
		req, err := http.NewRequest(http.MethodGet,
			fmt.Sprintf("%s/api/v1/flashcard-decks/%d/export/apkg?layout=legacy", h.BaseURL, deck), nil)
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("Authorization", "Bearer "+mod.Token)
		answered := make(chan *http.Response, 1)
		var body bytes.Buffer
		done := make(chan error, 1)
		go func() {
			defer GinkgoRecover()
			got, err := (&http.Client{}).Do(req)
			if err != nil {
				done <- err
				return
			}
			answered <- got
			_, err = io.Copy(&body, got.Body)
			done <- err
		}()

		// Opening the pipe for writing waits for the app to open it for
		// reading: first when the deck is read (is the picture there?),
		// then, once that is closed again, when the package is written and
		// the picture's turn comes.
		writer := func() *os.File {
			f, err := os.OpenFile(pipe, os.O_WRONLY, 0)
			Expect(err).NotTo(HaveOccurred())
			return f
		}
		Expect(writer().Close()).To(Succeed())
		Eventually(func() int { return openFiles(pipe) }).Should(BeZero(), "the check's reader closes")
		w := writer()
		DeferCleanup(func() { _ = w.Close() }) // a failed run still lets the app finish

		// The app now reads the pipe, the rest of the package unwritten:
		// the answer must be here already. (Built in a buffer, nothing is
		// sent until the pipe is drained; the deadline only ends that case.)
		var got *http.Response
		select {
		case got = <-answered:
		case err := <-done:
			Fail(fmt.Sprintf("the export failed: %v", err))
		case <-time.After(time.Minute):
			Fail("no answer while the package's last picture was unread: the package is not streamed")
		}
		Expect(got.StatusCode).To(Equal(200))
		Expect(got.Header.Get("Content-Type")).To(Equal("application/zip"))
		Expect(got.Header.Get("X-Cards-Left-Out")).To(Equal("0"))
		Expect(got.Header.Get("Content-Disposition")).To(Equal(fmt.Sprintf(`attachment; filename="deck-%d.apkg"`, deck)))

		_, err = w.Write(last)
		Expect(err).NotTo(HaveOccurred())
		Expect(w.Close()).To(Succeed())
		Expect(<-done).To(Succeed())

		zr, err := zip.NewReader(bytes.NewReader(body.Bytes()), int64(body.Len()))
		Expect(err).NotTo(HaveOccurred())
		var files [][]byte
		for _, f := range zr.File {
			rc, err := f.Open()
			Expect(err).NotTo(HaveOccurred())
			b, err := io.ReadAll(rc)
			Expect(err).NotTo(HaveOccurred())
			rc.Close()
			files = append(files, b)
		}
		Expect(files).To(ContainElements(first, last), "the whole package, both pictures in it")
	})
})
