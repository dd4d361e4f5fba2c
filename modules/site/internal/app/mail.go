package app

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	gomail "github.com/wneessen/go-mail"
)

// outgoing is one plain-text mail to the admin.
type outgoing struct {
	ReplyTo, Subject, Body string
}

// send delivers m to the admin through the configured SMTP server, or
// writes it to the log when there is none (development).
func (s *Service) send(ctx context.Context, m outgoing) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.cfg.MailFrom); err != nil {
		return fmt.Errorf("site.mail_from: %w", err)
	}
	if err := msg.To(s.cfg.AdminEmail); err != nil {
		return fmt.Errorf("site.admin_email: %w", err)
	}
	if err := msg.ReplyTo(m.ReplyTo); err != nil {
		return err
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)
	if s.cfg.SMTPURL == "" {
		s.log.InfoContext(ctx, "mail (site.smtp_url is empty: logged, not sent)", "to", s.cfg.AdminEmail,
			"subject", m.Subject, "body", m.Body)
		return nil
	}
	client, err := smtpClient(s.cfg.SMTPURL)
	if err != nil {
		return err
	}
	return client.DialAndSendWithContext(ctx, msg)
}

// smtpClient reads smtp://user:pass@host:port (STARTTLS when the server
// offers it) or smtps://... (TLS from the start).
func smtpClient(raw string) (*gomail.Client, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("site.smtp_url: %w", err)
	}
	opts := []gomail.Option{gomail.WithTLSPolicy(gomail.TLSOpportunistic)}
	switch u.Scheme {
	case "smtp":
		opts = append(opts, gomail.WithPort(587))
	case "smtps":
		opts = append(opts, gomail.WithSSL(), gomail.WithPort(465))
	default:
		return nil, fmt.Errorf("site.smtp_url: scheme %q is neither smtp nor smtps", u.Scheme)
	}
	if p := u.Port(); p != "" {
		port, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("site.smtp_url: port %q", p)
		}
		opts = append(opts, gomail.WithPort(port))
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	return gomail.NewClient(u.Hostname(), opts...)
}
