package drafts

import (
	"io"

	"github.com/roundsedu/rounds/modules/drafts/internal/reader"
)

// ReaderMain is the PDF reader's child process (`rounds pdf`): the server
// and the worker never parse a PDF themselves, they run their own
// executable with the argument "pdf" under memory and CPU limits and read
// its answer. It returns the process's exit status.
func ReaderMain(stdin io.Reader, stdout io.Writer) int { return reader.Main(stdin, stdout) }
