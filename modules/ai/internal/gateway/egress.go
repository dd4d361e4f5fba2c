package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// A model URL (the proxy's base, an admin's api_base) is a place this
// service sends keys and prompts: never a cloud's metadata service, which
// answers any local caller with the machine's credentials. Refused: the
// link-local ranges (169.254.0.0/16, fe80::/10: every cloud's metadata
// address lives there), the few metadata addresses outside them, and the
// metadata host names; a name is refused when it resolves there, and the
// dialer refuses such an address again at connect time, so a name that
// changes its answer between the check and the call (DNS rebinding) gets
// nowhere either. Loopback and private addresses stay allowed: that is
// where a LiteLLM proxy usually runs.

// lookup resolves a host name (a test resolves its own).
var lookup = net.DefaultResolver.LookupNetIP

// metadataAddrs are metadata services outside the link-local ranges.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("fd00:ec2::254"),   // AWS, over IPv6
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
}

// metadataHosts are the metadata services' names.
var metadataHosts = []string{"metadata", "metadata.google.internal", "metadata.goog", "instance-data",
	"instance-data.ec2.internal", "metadata.azure.internal", "metadata.platformequinix.com"}

// ErrMetadataAddress is a model URL that points at a metadata service or a
// link-local address.
var ErrMetadataAddress = errors.New("link-local and cloud metadata addresses are refused for model URLs")

// forbidden reports an address no model call may reach.
func forbidden(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() {
		return true
	}
	for _, m := range metadataAddrs {
		if a == m {
			return true
		}
	}
	return false
}

// CheckURL checks a model URL an admin gives: http(s), a host, and neither
// the host nor any address it resolves to is a metadata service or
// link-local. The resolution is bounded by ctx.
func CheckURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return errors.New("must be an http(s) URL up to /v1, e.g. http://litellm:4000/v1")
	}
	if err := CheckHost(u.Hostname()); err != nil {
		return err
	}
	if _, err := netip.ParseAddr(u.Hostname()); err == nil {
		return nil
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := lookup(rctx, "ip", u.Hostname())
	if err != nil {
		// Unresolvable now: the call would fail anyway, and the dialer
		// checks whatever it resolves to later.
		return nil
	}
	for _, a := range addrs {
		if forbidden(a) {
			return fmt.Errorf("%s resolves to %s: %w", u.Hostname(), a.Unmap(), ErrMetadataAddress)
		}
	}
	return nil
}

// CheckHost refuses a metadata host name or a forbidden address literal,
// without resolving anything (configuration is checked at boot this way).
func CheckHost(host string) error {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	for _, m := range metadataHosts {
		if h == m {
			return fmt.Errorf("%s is a metadata service: %w", host, ErrMetadataAddress)
		}
	}
	if a, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil && forbidden(a) {
		return fmt.Errorf("%s: %w", host, ErrMetadataAddress)
	}
	return nil
}

// refuseForbidden is a dialer's Control: it runs with the address about
// to be connected, after resolution.
func refuseForbidden(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return err
	}
	if forbidden(ap.Addr()) {
		return fmt.Errorf("connect to %s: %w", ap.Addr().Unmap(), ErrMetadataAddress)
	}
	return nil
}

// GuardedClient is the HTTP client model calls go through: the default
// transport with a dialer that refuses forbidden addresses at connect time.
func GuardedClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: refuseForbidden}).DialContext
	return &http.Client{Transport: t}
}
