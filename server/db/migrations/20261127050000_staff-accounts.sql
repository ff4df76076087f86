-- Librarians manage people in the app (issue 20): an account can be disabled (no sign-in, no
-- session honoured) and re-enabled, and every change of a role or of the account's state is
-- recorded with who made it and when. A faculty sign-up outside FACULTY_EMAIL_DOMAINS is a
-- student asking to be faculty (`requested_role`) until a librarian approves or declines it
-- (decision 025).
ALTER TABLE users
  ADD COLUMN disabled_at timestamptz,
  ADD COLUMN requested_role text CHECK (requested_role IN ('faculty'));
CREATE INDEX users_requested_role_idx ON users (requested_role) WHERE requested_role IS NOT NULL;

CREATE TABLE user_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Kept when the librarian's account goes: the name it had then still says who.
  changed_by text REFERENCES users (id) ON DELETE SET NULL,
  changed_by_name text NOT NULL DEFAULT '',
  changed_at timestamptz NOT NULL DEFAULT now(),
  field text NOT NULL CHECK (field IN ('role', 'disabled', 'faculty_request')),
  from_value text NOT NULL,
  to_value text NOT NULL
);
CREATE INDEX user_changes_user_idx ON user_changes (user_id, id DESC);
