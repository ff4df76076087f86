-- Demo chat rooms (server/db/seed.ts): the room list marks them, and the seed remembers each piece
-- of demo data it inserted once, so that a demo room someone deleted or renamed is not inserted
-- again on the next start.
ALTER TABLE chat_rooms ADD COLUMN is_demo boolean NOT NULL DEFAULT false;

CREATE TABLE demo_seeds (
  key text PRIMARY KEY,
  seeded_at timestamptz NOT NULL DEFAULT now()
);
