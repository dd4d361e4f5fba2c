package embed_test

import (
	"context"
	"testing"
	"time"

	"github.com/roundsedu/rounds/modules/search/internal/embed"
	"github.com/roundsedu/rounds/modules/search/standin"
)

func TestRemoteEmbedsThroughTheOpenAIProtocol(t *testing.T) {
	s := standin.New(64)
	defer s.Close()
	r := embed.NewRemote(embed.RemoteConfig{BaseURL: s.URL, APIKey: "k", Model: "text-embedding-test", Dims: 64, Timeout: 2 * time.Second})
	vs, err := r.Embed(context.Background(), []string{"asthma in pregnancy", "  ", "hypertension"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 || len(vs[0]) != 64 || vs[1] != nil || len(vs[2]) != 64 {
		t.Fatalf("vectors %d/%d/%d", len(vs[0]), len(vs[1]), len(vs[2]))
	}
	want := embed.NewLocal(64).Vector("asthma in pregnancy")
	if got := embed.Cosine(vs[0], want); got < 0.999 {
		t.Fatalf("vector differs from the stand-in's: %.3f", got)
	}
	req := s.EmbedRequests()
	if len(req) != 1 || req[0].Model != "text-embedding-test" || len(req[0].Documents) != 2 {
		t.Fatalf("blank text sent or wrong model: %+v", req)
	}
}

func TestRemoteFailures(t *testing.T) {
	s := standin.New(64)
	defer s.Close()
	s.SetSlowDelay(500 * time.Millisecond)
	cases := []struct {
		mode      standin.Mode
		transient bool
	}{
		{standin.Down, true},
		{standin.Slow, true},
		{standin.RateLimited, true},
		{standin.ServerError, true},
		{standin.Garbage, false},
		{standin.Mismatch, false},
		{standin.WrongDims, false},
	}
	for _, tc := range cases {
		t.Run(string(tc.mode), func(t *testing.T) {
			s.SetEmbeddings(tc.mode)
			r := embed.NewRemote(embed.RemoteConfig{BaseURL: s.URL, Model: "m", Dims: 64, Timeout: 100 * time.Millisecond})
			_, err := r.Embed(context.Background(), []string{"asthma", "copd"})
			if err == nil {
				t.Fatal("no error")
			}
			if embed.IsTransient(err) != tc.transient {
				t.Fatalf("transient = %v for %v", embed.IsTransient(err), err)
			}
		})
	}
}
