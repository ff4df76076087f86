-- Accounts. The users, sessions, accounts and verifications tables are better-auth's
-- (server/auth/auth.ts maps its field names to these columns); the profile columns of users are
-- ours and better-auth leaves them alone.
CREATE TABLE users (
  id text PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  email_verified boolean NOT NULL DEFAULT false,
  image text,
  created_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
  role text NOT NULL DEFAULT 'student' CHECK (role IN ('student', 'faculty', 'librarian')),
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  phone_number text NOT NULL DEFAULT '',
  institution_name text NOT NULL DEFAULT '',
  department text NOT NULL DEFAULT '',
  student_id text NOT NULL DEFAULT '',
  graduation_year integer CHECK (graduation_year BETWEEN 1900 AND 2100),
  academic_fields text[] NOT NULL DEFAULT '{}',
  academic_interests text[] NOT NULL DEFAULT '{}',
  signup_method text NOT NULL DEFAULT 'form' CHECK (signup_method IN ('form', 'google', 'oidc', 'command')),
  -- False for an identity a provider created until its owner completes the academic profile.
  profile_completed boolean NOT NULL DEFAULT false
);

CREATE TABLE sessions (
  id text PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  token text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at timestamptz NOT NULL,
  ip_address text,
  user_agent text,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE accounts (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  provider_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  access_token text,
  refresh_token text,
  id_token text,
  access_token_expires_at timestamptz,
  refresh_token_expires_at timestamptz,
  scope text,
  password text,
  created_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at timestamptz NOT NULL
);
CREATE INDEX accounts_user_id_idx ON accounts (user_id);
CREATE UNIQUE INDEX accounts_provider_account_idx ON accounts (provider_id, account_id);

CREATE TABLE verifications (
  id text PRIMARY KEY,
  identifier text NOT NULL,
  value text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX verifications_identifier_idx ON verifications (identifier);

-- better-auth's own limiter for /api/auth/*.
CREATE TABLE auth_rate_limits (
  id text PRIMARY KEY,
  key text NOT NULL UNIQUE,
  count integer NOT NULL,
  last_request bigint NOT NULL
);

-- Our limiter for the spec's /api/users/* calls: fixed windows per key (an IP or an e-mail).
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  count integer NOT NULL,
  window_started_at timestamptz NOT NULL
);
