-- +goose Up
-- A one-time code is bound to the client that started its sign-in (issue
-- 33): the browser secret's hash from sso_logins, and, when the client sent
-- one, the S256 challenge of a verifier it keeps. The exchange proves one of
-- them. Codes in flight at the upgrade have neither and are refused (they
-- last a minute).
ALTER TABLE identity.sso_logins ADD COLUMN challenge text;
ALTER TABLE identity.sso_codes ADD COLUMN browser_hash bytea, ADD COLUMN challenge text;

-- +goose Down
ALTER TABLE identity.sso_codes DROP COLUMN challenge, DROP COLUMN browser_hash;
ALTER TABLE identity.sso_logins DROP COLUMN challenge;
