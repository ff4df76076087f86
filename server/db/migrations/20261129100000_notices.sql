-- Notices (issue 21, decision 031): what the library tells a person in the app's bell and, unless
-- they turned that kind off, by e-mail.
--
-- A notice is made once: `dedupe_key` names the fact it reports (a hold's offer, a loan's due
-- date, a request's new status), and (user_id, dedupe_key) is unique, so the sweep that derives
-- time-based notices may run any number of times, in any number of processes, and a retried
-- request change adds nothing. A renewed loan has a new due date, so a new key and a new notice.
--
-- Its e-mail goes from 'pending' to 'sent' (or 'skipped' when its kind is off). A sender first
-- claims it ('sending', with the time): two processes never send one notice, and a claim left by
-- a process killed mid-send is taken again after a lease (server/notices/deliver.ts).

CREATE TABLE notices (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL
    CHECK (kind IN ('hold_offered', 'pickup_reminder', 'due_soon', 'overdue', 'request_status')),
  dedupe_key text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  -- A path inside the app: the book, the loans, the requests.
  link text NOT NULL,
  -- The moment the notice is about, when its e-mail carries a calendar entry: the end of an
  -- offer, a due date.
  calendar_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz,
  email_state text NOT NULL DEFAULT 'pending'
    CHECK (email_state IN ('pending', 'sending', 'sent', 'skipped')),
  -- When a sender claimed it ('sending'); an old claim is a sender that died.
  email_claimed_at timestamptz,
  emailed_at timestamptz,
  CONSTRAINT notices_once UNIQUE (user_id, dedupe_key)
);
-- One person's notices newest first, paged by id.
CREATE INDEX notices_user_idx ON notices (user_id, id DESC);
-- The bell's unread count.
CREATE INDEX notices_unread_idx ON notices (user_id) WHERE read_at IS NULL;
-- The e-mails still to send: a handful at any time, however many notices are kept.
CREATE INDEX notices_email_due_idx ON notices (id) WHERE email_state IN ('pending', 'sending');

-- Per person and kind, whether the notice also comes by e-mail. No row: it does (the default is
-- on for every kind), so only a choice someone made is stored.
CREATE TABLE notice_preferences (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL
    CHECK (kind IN ('hold_offered', 'pickup_reminder', 'due_soon', 'overdue', 'request_status')),
  email boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, kind)
);
