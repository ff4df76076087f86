-- Typing and presence (issue 26, decision 044) need no table: presence reads chat_presence, and
-- typing lives in each process's memory. What the issue's moderation leftovers need: a librarian
-- may end a mute or a removal early, recorded as its own action ('lift') with who and why.
ALTER TABLE moderation_actions DROP CONSTRAINT moderation_actions_action_check;
ALTER TABLE moderation_actions ADD CONSTRAINT moderation_actions_action_check
  CHECK (action IN ('dismiss', 'hide', 'restore', 'mute', 'remove', 'lift'));
