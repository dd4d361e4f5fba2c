package loadkit

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
)

// Wire is one keep-alive HTTP/1.1 connection that writes a request's bytes
// as they are given and reads its answer, for load generators that share
// the machine with the service they measure: http.Client hands every
// request between two goroutines per connection (its read and write
// loops), which cost the bench's autosave load about a quarter of the
// process's CPU; pgbench's client, the other side of the comparison, is a
// few lines of C. The answer is parsed by net/http (http.ReadResponse).
// One goroutine uses a Wire at a time.
type Wire struct {
	host string
	conn net.Conn
	r    *bufio.Reader
}

// NewWire is a connection to base (http://host:port), dialled on first use
// and again after the server closes it.
func NewWire(base string) (*Wire, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("loadkit: a wire speaks plain http, not %q", u.Scheme)
	}
	return &Wire{host: u.Host}, nil
}

// Header is one request header line.
type Header struct{ Name, Value string }

// AppendRequest appends an HTTP/1.1 request for the wire's host to dst: a
// bearer token when tok is set, the headers, and a JSON body when body is
// not nil.
func (w *Wire) AppendRequest(dst []byte, method, path, tok string, headers []Header, body []byte) []byte {
	dst = append(dst, method...)
	dst = append(dst, ' ')
	dst = append(dst, path...)
	dst = append(dst, " HTTP/1.1\r\nHost: "...)
	dst = append(dst, w.host...)
	if tok != "" {
		dst = append(dst, "\r\nAuthorization: Bearer "...)
		dst = append(dst, tok...)
	}
	for _, h := range headers {
		dst = append(dst, "\r\n"...)
		dst = append(dst, h.Name...)
		dst = append(dst, ": "...)
		dst = append(dst, h.Value...)
	}
	if body != nil {
		dst = append(dst, "\r\nContent-Type: application/json\r\nContent-Length: "...)
		dst = strconv.AppendInt(dst, int64(len(body)), 10)
	}
	dst = append(dst, "\r\n\r\n"...)
	return append(dst, body...)
}

// Do sends req (from AppendRequest) and reads the answer to its end,
// dropping its body; a status other than 2xx is an error carrying it.
func (w *Wire) Do(req []byte) error {
	_, err := w.exchange(req, nil, false)
	return err
}

// Read sends req like Do and appends the answer's body to dst.
func (w *Wire) Read(req, dst []byte) ([]byte, error) {
	return w.exchange(req, dst, true)
}

// Status sends req and returns the answer's status, its body dropped
// (a 304 is not an error here).
func (w *Wire) Status(req []byte) (int, error) {
	res, err := w.send(req)
	if err != nil {
		return 0, err
	}
	defer w.finish(res)
	_, err = io.Copy(io.Discard, res.Body)
	return res.StatusCode, err
}

func (w *Wire) exchange(req, dst []byte, keep bool) ([]byte, error) {
	res, err := w.send(req)
	if err != nil {
		return dst, err
	}
	defer w.finish(res)
	if res.StatusCode/100 != 2 {
		data, _ := io.ReadAll(res.Body)
		return dst, fmt.Errorf("%d %s", res.StatusCode, data)
	}
	if !keep {
		_, err = io.Copy(io.Discard, res.Body)
		return dst, err
	}
	buf := bytes.NewBuffer(dst)
	_, err = buf.ReadFrom(res.Body)
	return buf.Bytes(), err
}

// send writes req, dialling first when needed, and reads the answer's head.
func (w *Wire) send(req []byte) (*http.Response, error) {
	if w.conn == nil {
		c, err := net.Dial("tcp", w.host)
		if err != nil {
			return nil, err
		}
		w.conn, w.r = c, bufio.NewReaderSize(c, 16<<10)
	}
	res, err := w.roundTrip(req)
	if err != nil {
		w.Close()
	}
	return res, err
}

// finish closes an answer's body, and the connection when the server
// said it would.
func (w *Wire) finish(res *http.Response) {
	_ = res.Body.Close()
	if res.Close {
		w.Close()
	}
}

func (w *Wire) roundTrip(req []byte) (*http.Response, error) {
	if _, err := w.conn.Write(req); err != nil {
		return nil, err
	}
	return http.ReadResponse(w.r, nil)
}

// Close closes the connection (the next Do dials again).
func (w *Wire) Close() {
	if w.conn != nil {
		_ = w.conn.Close()
		w.conn, w.r = nil, nil
	}
}

// AppendSave appends the autosave body a sitting learner's device sends
// at its rev-th save of attemptID (quizID): the first rev questions
// answered, a position and a time left that move with rev. Built without
// reflection, for the same reason as Wire.
func AppendSave(dst []byte, quizID, attemptID int64, questions []int64, rev int64) []byte {
	dst = append(dst, `{"quiz_id":`...)
	dst = strconv.AppendInt(dst, quizID, 10)
	dst = append(dst, `,"attempt_id":`...)
	dst = strconv.AppendInt(dst, attemptID, 10)
	dst = append(dst, `,"answers":{`...)
	for k := range min(int(rev), len(questions)) {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, questions[k], 10)
		dst = append(dst, `":"Bravo"`...)
	}
	dst = append(dst, `},"current_idx":`...)
	dst = strconv.AppendInt(dst, rev%int64(max(1, len(questions))), 10)
	dst = append(dst, `,"mode":"timed","time_left":`...)
	dst = strconv.AppendInt(dst, max(0, 36000-rev), 10)
	dst = append(dst, `,"revision":`...)
	dst = strconv.AppendInt(dst, rev, 10)
	return append(dst, '}')
}
