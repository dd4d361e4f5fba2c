// Command healthcheck is the image's HEALTHCHECK: the image has no curl.
// It GETs the URL in ROUNDS_HEALTHCHECK_URL (default the API's /api/health
// on :8080; a worker or scheduler, which serves no API, points it at its
// metrics listener) and exits 0 on a 2xx, 1 otherwise.
package main

import (
	"fmt"
	"net/http"
	"os"
	"time"
)

func main() {
	url := os.Getenv("ROUNDS_HEALTHCHECK_URL")
	if url == "" {
		url = "http://127.0.0.1:8080/api/health"
	}
	client := &http.Client{Timeout: 3 * time.Second}
	res, err := client.Get(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "healthcheck:", err)
		os.Exit(1)
	}
	_ = res.Body.Close()
	if res.StatusCode/100 != 2 {
		fmt.Fprintln(os.Stderr, "healthcheck:", url, res.Status)
		os.Exit(1)
	}
}
