-- Sign-in throttling per (e-mail, client address) pair (server/http/sign-in-throttle.ts, decision
-- 020): failures counted per pair, and the earliest instant the pair may try again. A row holds an
-- e-mail and an IP address, so the sweeper deletes it once its failures are forgotten
-- (`expires_at`), as it does the rate-limit counters.
CREATE TABLE sign_in_throttles (
  email text NOT NULL,
  address text NOT NULL,
  failures integer NOT NULL,
  next_attempt_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (email, address)
);
CREATE INDEX sign_in_throttles_expires_at_idx ON sign_in_throttles (expires_at);
