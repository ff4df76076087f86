-- Library insights (issue 27, decision 041): the Digi Chatbot's questions it could not answer,
-- counted like searches (daily counts per wording, a daily person key, reduced after the
-- retention). `scope` holds the wording's grouping key (server/insights/questions.ts): the words
-- that carry its meaning, stemmed and sorted, so that "opening hours on holidays?" and "Holiday
-- opening hours" are one group while each wording stays a subject of its own.

ALTER TABLE insight_events DROP CONSTRAINT insight_events_kind_check;
ALTER TABLE insight_events ADD CONSTRAINT insight_events_kind_check
  CHECK (kind IN ('search', 'search_empty', 'view', 'open', 'chatbot_unanswered'));

ALTER TABLE insight_daily DROP CONSTRAINT insight_daily_kind_check;
ALTER TABLE insight_daily ADD CONSTRAINT insight_daily_kind_check
  CHECK (kind IN ('search', 'search_empty', 'view', 'open', 'chatbot_unanswered'));
