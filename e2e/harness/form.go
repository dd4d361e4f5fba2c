package harness

import (
	"bytes"
	"mime/multipart"
)

// Form builds a multipart/form-data body with the extra fields and, when
// field is not empty, one file; it returns the body and its Content-Type.
// Writing to memory cannot fail, so there is no error.
func Form(field, filename string, data []byte, extra map[string]string) (body []byte, contentType string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range extra {
		_ = w.WriteField(k, v)
	}
	if field != "" {
		fw, _ := w.CreateFormFile(field, filename)
		_, _ = fw.Write(data)
	}
	_ = w.Close()
	return buf.Bytes(), w.FormDataContentType()
}
