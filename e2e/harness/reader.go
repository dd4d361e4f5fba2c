package harness

import (
	"os"

	"github.com/roundsedu/rounds/modules/drafts"
)

// The server and the worker read PDFs in a child process: their own
// executable run with the single argument "pdf" (`rounds pdf`). In a suite
// that executable is the test binary, which becomes the reader here, before
// any test starts.
func init() {
	if len(os.Args) == 2 && os.Args[1] == "pdf" {
		os.Exit(drafts.ReaderMain(os.Stdin, os.Stdout))
	}
}
