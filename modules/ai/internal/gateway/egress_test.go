package gateway

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
)

func TestCheckURLRefusesMetadataAndLinkLocal(t *testing.T) {
	refused := []string{"http://169.254.169.254/v1", "http://169.254.0.1:4000", "https://[fe80::1%25eth0]/v1",
		"http://[fe80::1]/v1", "http://[::ffff:169.254.169.254]/v1", "http://[fd00:ec2::254]/v1",
		"http://100.100.100.200/latest", "http://metadata.google.internal/computeMetadata/v1", "http://Metadata.Goog./x",
		"http://instance-data.ec2.internal/", "http://rebind.example.test/v1"}
	allowed := []string{"http://127.0.0.1:4000/v1", "http://localhost:4000/v1", "https://litellm.internal.example/v1",
		"http://10.0.0.5/v1", "http://[::1]:4000/v1", "http://unresolvable.example.test/v1"}
	old := lookup
	defer func() { lookup = old }()
	lookup = func(_ context.Context, _, host string) ([]netip.Addr, error) {
		switch host {
		case "rebind.example.test": // a name an attacker points at the metadata service
			return []netip.Addr{netip.MustParseAddr("10.0.0.9"), netip.MustParseAddr("169.254.169.254")}, nil
		case "litellm.internal.example":
			return []netip.Addr{netip.MustParseAddr("10.1.2.3")}, nil
		case "localhost":
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	for _, u := range refused {
		if err := CheckURL(context.Background(), u); !errors.Is(err, ErrMetadataAddress) {
			t.Errorf("%s: want ErrMetadataAddress, got %v", u, err)
		}
	}
	for _, u := range allowed {
		if err := CheckURL(context.Background(), u); err != nil {
			t.Errorf("%s: refused: %v", u, err)
		}
	}
	for _, u := range []string{"ftp://proxy/v1", "http://", "not a url", "file:///etc/passwd"} {
		if err := CheckURL(context.Background(), u); err == nil || errors.Is(err, ErrMetadataAddress) {
			t.Errorf("%s: want a plain refusal, got %v", u, err)
		}
	}
}

// The dialer refuses at connect time, whatever a name resolved to by then
// (no packet leaves: the check runs before connect).
func TestGuardedClientRefusesToConnect(t *testing.T) {
	c := GuardedClient()
	for _, u := range []string{"http://169.254.169.254/latest/meta-data/", "http://[fe80::1]:80/", "http://100.100.100.200/"} {
		res, err := c.Get(u)
		if err == nil {
			res.Body.Close()
			t.Fatalf("%s: connected", u)
		}
		if !errors.Is(err, ErrMetadataAddress) {
			t.Errorf("%s: want ErrMetadataAddress, got %v", u, err)
		}
	}
}
