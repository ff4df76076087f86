import type { ColumnType, Generated } from 'kysely';

/** A catalogue item: a book, a research paper or a course material. */
export interface ItemsTable {
  id: Generated<string>;
  kind: 'book' | 'paper' | 'course';
  title: string;
  authors: string[];
  year: number | null;
  subjects: ColumnType<string[], string[] | undefined, string[]>;
  description: string | null;
  /** Where the row came from (`demo`, an importer's name); with `source_id` it makes re-imports idempotent. */
  source: string;
  source_id: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** ISBN-13, 13 digits (books): `normaliseIsbn` makes it from either form. */
  isbn: ColumnType<string | null, string | null | undefined, string | null>;
  /** arXiv identifier without version, e.g. `0704.0013` or `2303.11436` (papers). */
  arxiv_id: ColumnType<string | null, string | null | undefined, string | null>;
  doi: ColumnType<string | null, string | null | undefined, string | null>;
  /** An external link (a course's page, a paper's abstract page). */
  url: ColumnType<string | null, string | null | undefined, string | null>;
  /** A published course material's Google Drive link. */
  drive_link: ColumnType<string | null, string | null | undefined, string | null>;
  cover_url: ColumnType<string | null, string | null | undefined, string | null>;
  language: ColumnType<string | null, string | null | undefined, string | null>;
  /** Course materials: the publishing institute. */
  institution: ColumnType<string | null, string | null | undefined, string | null>;
  /** Course materials: their genre as the publish form gives it. */
  genre: ColumnType<string | null, string | null | undefined, string | null>;
  /** Course materials: the publication date from the publish form. */
  /** `YYYY-MM-DD` (dates are read as text, see server/db/client.ts). */
  published_date: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * Physical copies the library holds (withdrawn ones aside): a count of `copies` rows that their
   * trigger keeps. Never written directly.
   */
  copies: ColumnType<number, never, never>;
  /** Copies held but not lendable through reservations now (on loan, in repair, missing). */
  copies_unavailable: ColumnType<number, never, never>;
  /** Pages of held text in `item_pages`. */
  page_count: ColumnType<number, number | undefined, number>;
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a librarian withdrew it: hidden from everyone else until restored. */
  withdrawn_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The librarian who changed it last. */
  updated_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Generated: weighted full-text vector. Never written. */
  search: ColumnType<string, never, never>;
  /** Generated: the title's words as one key, and its main title's (decision 032). */
  title_key: ColumnType<string, never, never>;
  main_title_key: ColumnType<string, never, never>;
  /** Ratings the source counted (Goodreads' ratings_count): popularity, for ties in search. */
  ratings_count: ColumnType<number | null, number | null | undefined, number | null>;
  /** Reservations and walk-in loans of it, recounted by the job queue: popularity too. */
  circulation: ColumnType<number, number | undefined, number>;
}

/** A physical copy of an item: `items.copies` and `copies_unavailable` count these (a trigger). */
export interface CopiesTable {
  id: Generated<string>;
  item_id: string;
  /** As printed on the label; unique ignoring case. */
  barcode: string;
  /** Shelfmark, branch or room; empty when not given. */
  location: ColumnType<string, string | undefined, string>;
  status: ColumnType<
    'available' | 'on_loan' | 'in_repair' | 'missing' | 'withdrawn',
    'available' | 'on_loan' | 'in_repair' | 'missing' | 'withdrawn' | undefined,
    'available' | 'on_loan' | 'in_repair' | 'missing' | 'withdrawn'
  >;
  note: ColumnType<string, string | undefined, string>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The librarian who last changed it; null for imports and the demo. */
  updated_by: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One change to an item or its copies, with who made it and when. */
export interface ItemChangesTable {
  id: Generated<string>;
  item_id: string;
  changed_by: string | null;
  /** The changer's name at the time. */
  changed_by_name: ColumnType<string, string | undefined, never>;
  changed_at: ColumnType<Date, Date | string | undefined, never>;
  action: 'created' | 'edited' | 'withdrawn' | 'restored' | 'copy_added' | 'copy_changed';
  /** Each changed field: `{ from, to }`. */
  changes: ColumnType<Record<string, { from: unknown; to: unknown }>, string | undefined, never>;
}

/** One page of a held book's text. */
export interface ItemPagesTable {
  item_id: string;
  page_number: number;
  content: string;
  /** Generated: the page's words for search inside (english). Never written. */
  search: ColumnType<string, never, never>;
  /** Generated: the page's lines that start with `#` (its headings), '' when none. Never written. */
  headings: ColumnType<string, never, never>;
}

/** Where one person left off in one book (issue 24). */
export interface ReadingProgressTable {
  user_id: string;
  item_id: string;
  page: number;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** How one person likes pages shown; no row means the defaults. */
export interface ReadingPreferencesTable {
  user_id: string;
  theme: 'light' | 'sepia' | 'dark';
  text_size: 'small' | 'medium' | 'large' | 'x-large';
  line_width: 'narrow' | 'medium' | 'wide';
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A page one person bookmarked in a book. */
export interface BookmarksTable {
  user_id: string;
  item_id: string;
  page: number;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** A passage one person highlighted, by offsets into the page's plain text, with a note. */
export interface HighlightsTable {
  id: Generated<string>;
  user_id: string;
  item_id: string;
  page: number;
  start_offset: number;
  end_offset: number;
  quote: string;
  note: ColumnType<string, string | undefined, string>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Distinct catalogue words for "did you mean". */
export interface SearchWordsTable {
  word: string;
  /** How many items hold the word: of two corrections equally close, the commoner first. */
  documents: ColumnType<number, number | undefined, number>;
}

/**
 * An item's sentence embedding for search by meaning (issue 23, decision 036). Searched as
 * `embedding::vector(512)` where pgvector is present (server/db/vector.ts).
 */
export interface ItemEmbeddingsTable {
  item_id: string;
  /** Which model made it, e.g. `use-lite-512`. */
  model: string;
  /** md5 of the text that was embedded: the item is embedded again when its text changes. */
  text_hash: string;
  /** 512 floats of unit length. */
  embedding: number[];
  embedded_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Migrations already applied, by file name. */
export interface SchemaMigrationsTable {
  name: string;
  applied_at: ColumnType<Date, Date | string | undefined, never>;
}

/** An account: better-auth's columns plus our profile columns. */
export interface UsersTable {
  id: string;
  name: string;
  email: string;
  email_verified: Generated<boolean>;
  image: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  role: Generated<'student' | 'faculty' | 'librarian'>;
  first_name: Generated<string>;
  last_name: Generated<string>;
  phone_number: Generated<string>;
  institution_name: Generated<string>;
  department: Generated<string>;
  student_id: Generated<string>;
  graduation_year: number | null;
  academic_fields: ColumnType<string[], string[] | undefined, string[]>;
  academic_interests: ColumnType<string[], string[] | undefined, string[]>;
  signup_method: Generated<'form' | 'google' | 'oidc' | 'command'>;
  profile_completed: Generated<boolean>;
  /** The forum's chosen username (null until chosen). */
  chat_username: ColumnType<string | null, string | null | undefined, string | null>;
  /** `chat_username`'s skeleton (server/chat/names.ts), unique: no two usernames look alike. */
  chat_username_skeleton: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a librarian disabled the account (null while it is enabled): no sign-in, no session. */
  disabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** A faculty sign-up awaiting a librarian (decision 025): the account is a student until then. */
  requested_role: ColumnType<'faculty' | null, 'faculty' | null | undefined, 'faculty' | null>;
}

/** A recorded change to an account by a librarian (issue 20): its role or its disabled state. */
export interface UserChangesTable {
  id: Generated<string>;
  user_id: string;
  changed_by: string | null;
  /** The changer's name at the time. */
  changed_by_name: ColumnType<string, string | undefined, never>;
  changed_at: ColumnType<Date, Date | string | undefined, never>;
  field: 'role' | 'disabled' | 'faculty_request';
  from_value: string;
  to_value: string;
}

/** A signed-in browser (better-auth's). */
export interface SessionsTable {
  id: string;
  expires_at: Date;
  token: string;
  created_at: Generated<Date>;
  updated_at: Date;
  ip_address: string | null;
  user_agent: string | null;
  user_id: string;
}

/** A way to sign in to a user: `credential` (password) or a provider identity (better-auth's). */
export interface AccountsTable {
  id: string;
  account_id: string;
  provider_id: string;
  user_id: string;
  password: string | null;
  created_at: Generated<Date>;
  updated_at: Date;
}

/** Short-lived tokens such as password reset links (better-auth's). */
export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Date;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Fixed-window counters of our rate limiter. */
export interface RateLimitsTable {
  key: string;
  count: number;
  window_started_at: Date;
  /** The end of the window; the sweeper deletes the row after it. */
  expires_at: Date;
}

/** Sign-in throttling per (e-mail, client address) pair (server/http/sign-in-throttle.ts). */
export interface SignInThrottlesTable {
  email: string;
  address: string;
  /** Attempts counted since the last sign-in, or since the failures were forgotten. */
  failures: number;
  /** Before this instant the pair's attempts are refused without checking the password. */
  next_attempt_at: Date;
  /** When the failures are forgotten; the sweeper deletes the row after it. */
  expires_at: Date;
}

/** better-auth's own limiter for /api/auth/*: one row per client address and path. */
export interface AuthRateLimitsTable {
  id: string;
  key: string;
  count: number;
  /** Milliseconds since 1970 (bigint: PGlite reads it as a number, node-postgres as text). */
  last_request: ColumnType<number | string, number, number>;
}

/** The database as Kysely sees it. Add a table here when a migration creates one. */
export interface Database {
  items: ItemsTable;
  item_pages: ItemPagesTable;
  reading_progress: ReadingProgressTable;
  reading_preferences: ReadingPreferencesTable;
  bookmarks: BookmarksTable;
  highlights: HighlightsTable;
  copies: CopiesTable;
  item_changes: ItemChangesTable;
  search_words: SearchWordsTable;
  item_embeddings: ItemEmbeddingsTable;
  schema_migrations: SchemaMigrationsTable;
  users: UsersTable;
  user_changes: UserChangesTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  rate_limits: RateLimitsTable;
  auth_rate_limits: AuthRateLimitsTable;
  sign_in_throttles: SignInThrottlesTable;
  verifications: VerificationsTable;
  resource_requests: ResourceRequestsTable;
  request_supporters: RequestSupportersTable;
  reservations: ReservationsTable;
  queued_holds: QueuedHoldsTable;
  loans: LoansTable;
  circulation_events: CirculationEventsTable;
  notices: NoticesTable;
  notice_preferences: NoticePreferencesTable;
  idempotency_keys: IdempotencyKeysTable;
  chat_rooms: ChatRoomsTable;
  chat_messages: ChatMessagesTable;
  chat_message_reactions: ChatMessageReactionsTable;
  chat_servers: ChatServersTable;
  chat_presence: ChatPresenceTable;
  chat_send_times: ChatSendTimesTable;
  chat_reports: ChatReportsTable;
  chat_room_members: ChatRoomMembersTable;
  chat_mentions: ChatMentionsTable;
  chat_read_markers: ChatReadMarkersTable;
  chat_message_reports: ChatMessageReportsTable;
  chat_sanctions: ChatSanctionsTable;
  moderation_actions: ModerationActionsTable;
  demo_seeds: DemoSeedsTable;
  data_versions: DataVersionsTable;
  catalogue_imports: CatalogueImportsTable;
  catalogue_import_chunks: CatalogueImportChunksTable;
  saved_items: SavedItemsTable;
  reading_lists: ReadingListsTable;
  reading_list_items: ReadingListItemsTable;
  insight_events: InsightEventsTable;
  insight_daily: InsightDailyTable;
}

/**
 * What library insights count (issue 27); `chatbot_unanswered`: a question the Digi Chatbot could
 * not answer, its grouping key (server/insights/questions.ts) as the scope.
 */
export type InsightKind = 'search' | 'search_empty' | 'view' | 'open' | 'chatbot_unanswered';

/** Raw insight events of the retention window, keyed by a daily hash of the person. */
export interface InsightEventsTable {
  day: ColumnType<string, string, string>;
  kind: InsightKind;
  scope: ColumnType<string, string | undefined, string>;
  subject: string;
  /** HMAC of the person (or a guest's address) with the server's secret and the day. */
  person: string;
  count: number;
}

/** Insight counts of days older than the retention: the count and distinct people of each day. */
export interface InsightDailyTable {
  day: ColumnType<string, string, string>;
  kind: InsightKind;
  scope: ColumnType<string, string | undefined, string>;
  subject: string;
  count: number;
  people: number;
}

/** An item one person saved to their shelf (issue 24). */
export interface SavedItemsTable {
  user_id: string;
  item_id: string;
  saved_at: ColumnType<Date, Date | string | undefined, never>;
  /** bigint identity, read as text: orders saves of the same instant. Never written. */
  seq: ColumnType<string, never, never>;
}

/** One person's named reading list; `share_token` set while it is shared by link (issue 24). */
export interface ReadingListsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  share_token: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** An item of a reading list, at its place in the owner's order. */
export interface ReadingListItemsTable {
  list_id: string;
  item_id: string;
  position: number;
  added_at: ColumnType<Date, Date | string | undefined, never>;
}

/** A MARC or holdings file a librarian uploaded, and what its import did (issue 20). */
export interface CatalogueImportsTable {
  id: Generated<string>;
  kind: 'marc' | 'holdings';
  file_name: string;
  /** int8: node-postgres hands it over as text. */
  size_bytes: ColumnType<string, number, number>;
  rows_expected: ColumnType<number, number | undefined, number>;
  rows_read: ColumnType<number, number | undefined, number>;
  state: ColumnType<
    'uploading' | 'queued' | 'running' | 'done' | 'failed',
    undefined,
    'queued' | 'running' | 'done' | 'failed'
  >;
  report: ColumnType<unknown, never, string | null>;
  error: string | null;
  created_by: string | null;
  created_by_name: ColumnType<string, string | undefined, never>;
  created_at: ColumnType<Date, undefined, never>;
  started_at: ColumnType<Date | null, undefined, Date | null>;
  finished_at: ColumnType<Date | null, undefined, Date | null>;
}

/** A piece of an uploaded file, kept until its import has run. */
export interface CatalogueImportChunksTable {
  import_id: string;
  seq: number;
  data: Uint8Array;
}

/**
 * A version per kind of data that processes keep in memory, bumped by a trigger in the
 * transaction of every change (`items`: the course list, decision 019).
 */
export interface DataVersionsTable {
  name: string;
  /** int8: node-postgres hands it over as text. */
  version: ColumnType<string, never, never>;
}

/** A piece of demo data the seed inserted once, by key; kept after the data itself is deleted. */
export interface DemoSeedsTable {
  key: string;
  seeded_at: ColumnType<Date, Date | string | undefined, never>;
}

/** A forum chat room. */
export interface ChatRoomsTable {
  id: Generated<string>;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  creator_id: string;
  creator_name: string;
  abuse_detected: ColumnType<boolean, boolean | undefined, boolean>;
  /** Inserted by the demo data (server/db/seed.ts); the room list marks it. */
  is_demo: ColumnType<boolean, boolean | undefined, boolean>;
  /** `name`'s skeleton (server/chat/names.ts), unique: no two open rooms look alike. */
  name_skeleton: ColumnType<string | null, string | null | undefined, string | null>;
  /** Slow mode: one message per this many seconds per person; 0 is off (decision 040). */
  slow_mode_seconds: ColumnType<number, number | undefined, number>;
  /** The room's own words, added to the matcher for this room only. */
  words: ColumnType<string[], string[] | undefined, string[]>;
  /** Members only since then: only those who joined before may post. */
  members_only_since: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  /** Shown to a person on joining. */
  rules: ColumnType<string, string | undefined, string>;
  /** The catalogue item the room discusses ("Discuss this book", decision 045), at most one room each. */
  item_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** Who has joined a room at least once (decision 040). */
export interface ChatRoomMembersTable {
  room_id: string;
  user_id: string;
  joined_at: ColumnType<Date, Date | string | undefined, never>;
}

/** Who a message mentions (decision 042), resolved by the server against the room's members. */
export interface ChatMentionsTable {
  /** bigint, read as text. */
  message_id: string;
  user_id: string;
  room_id: string;
  /** The username as matched. */
  name: string;
}

/** How far a person has read a room (decision 042): the last message id they saw. */
export interface ChatReadMarkersTable {
  user_id: string;
  room_id: string;
  /** bigint, read as text. */
  last_read_id: ColumnType<string, string | number | undefined, string | number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A member's report of one message (decision 040): one per person per message. */
export interface ChatMessageReportsTable {
  id: Generated<string>;
  message_id: string;
  reporter_id: string;
  reason: 'spam' | 'harassment' | 'hate' | 'off-topic' | 'other';
  text: ColumnType<string, string | undefined, string>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  resolved_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A mute or a removal in force until `ends_at`; `room_id` null: every room. */
export interface ChatSanctionsTable {
  id: Generated<string>;
  user_id: string;
  room_id: string | null;
  kind: 'mute' | 'remove';
  reason: string;
  ends_at: ColumnType<Date, Date | string, Date | string>;
  action_id: string | null;
}

/** One moderator's action, with who and why (decision 040). */
export interface ModerationActionsTable {
  id: Generated<string>;
  actor_id: string | null;
  actor_name: string;
  /** `lift`: a mute or removal ended early (decision 044). */
  action: 'dismiss' | 'hide' | 'restore' | 'mute' | 'remove' | 'lift';
  target_user_id: string | null;
  target_name: ColumnType<string, string | undefined, string>;
  message_id: string | null;
  room_id: string | null;
  room_name: ColumnType<string, string | undefined, string>;
  scope: 'room' | 'everywhere' | null;
  reason: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  ends_at: Date | null;
}

/** A message in a room; ids increase. */
export interface ChatMessagesTable {
  /** bigint: read as a string. */
  id: ColumnType<string, never, never>;
  room_id: string;
  sender_id: string | null;
  sender_name: string;
  content: string;
  is_system: ColumnType<boolean, boolean | undefined, boolean>;
  /** Sent by a librarian (the server decides, from the sender's role); the forum badges it. */
  sender_is_staff: ColumnType<boolean, boolean | undefined, boolean>;
  /** The id its client made (a UUID), unique per sender: a retry is answered with this row. */
  client_id: ColumnType<string | null, string | null | undefined, never>;
  /** Hidden by a moderator: kept, shown as removed (decision 040). */
  hidden_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The message this one replies to (decision 043). */
  reply_to: ColumnType<string | null, string | null | undefined, string | null>;
  /** The sender's last edit (decision 043). */
  edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Deleted by its sender: kept for the moderators, shown as deleted (decision 043). */
  deleted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The last edit, deletion, hide, restore or reaction: what a catch-up resends. */
  changed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** One person's reaction to a message (decision 043): one per message, person and emoji. */
export interface ChatMessageReactionsTable {
  message_id: string;
  user_id: string;
  user_name: string;
  emoji: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** A report of abusive language from a browser's own check (server/chat/reports.ts). */
export interface ChatReportsTable {
  /** bigint: read as a string. */
  id: ColumnType<string, never, never>;
  reporter_id: string;
  room_id: string;
  /** The reported text, kept only when the server's matcher found abuse in it. */
  text: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** A server process holding sockets, with its heartbeat. */
export interface ChatServersTable {
  id: string;
  seen_at: ColumnType<Date, Date | string, Date | string>;
}

/** One socket in one room. */
export interface ChatPresenceTable {
  socket_id: string;
  server_id: string;
  room_id: string;
  user_id: string;
  joined_at: ColumnType<Date, Date | string | undefined, never>;
}

/** A person's recent chat send times, for the message rate across processes. */
export interface ChatSendTimesTable {
  user_id: string;
  times: Date[];
}

/** A request that the library acquire a resource (a purchase suggestion). */
export interface ResourceRequestsTable {
  id: Generated<string>;
  requester_id: string;
  /** The name the request shows (the form's `student` field). */
  requester_name: string;
  title: string;
  description: string | null;
  resource_type: 'book' | 'journal' | 'article' | 'courseMaterial' | 'other';
  institution_name: string;
  status: Generated<'pending' | 'accepted' | 'ordered' | 'available' | 'rejected'>;
  status_reason: ColumnType<string | null, string | null | undefined, string | null>;
  status_changed_at: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  status_changed_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Requester plus everyone who added their support; kept in step with request_supporters. */
  supporters: Generated<number>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One person's support for a request. */
export interface RequestSupportersTable {
  request_id: string;
  user_id: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** A hold on one physical copy for a pickup slot. */
export interface ReservationsTable {
  /** `RES-` and digits, from a sequence. */
  id: Generated<string>;
  user_id: string;
  item_id: string;
  /** The pickup day in the library's time zone. */
  pickup_date: ColumnType<string, string, string>;
  time_slot: string;
  slot_starts_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  status: Generated<'active' | 'collected' | 'returned' | 'cancelled' | 'expired' | 'no_show'>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A place in a book's waiting list, and the offer of a freed copy (decision 029). */
export interface QueuedHoldsTable {
  /** The queue's order, from a sequence (bigint, read as text). */
  number: ColumnType<string, never, never>;
  /** `HOLD-` and the number. */
  id: ColumnType<string, never, never>;
  user_id: string;
  item_id: string;
  status: Generated<'queued' | 'offered' | 'fulfilled' | 'cancelled' | 'expired'>;
  offered_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  offer_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  reservation_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One copy lent to one person (decision 030). */
export interface LoansTable {
  /** The order loans were made in, from a sequence (bigint, read as text). */
  number: ColumnType<string, never, never>;
  /** `LOAN-` and the number. */
  id: ColumnType<string, never, never>;
  /** Null only for a returned loan whose borrower deleted their account. */
  user_id: string | null;
  item_id: string;
  copy_id: string;
  reservation_id: string | null;
  checked_out_at: ColumnType<Date, Date | string, never>;
  checked_out_by: string | null;
  due_at: ColumnType<Date, Date | string, Date | string>;
  renewals: ColumnType<number, number | undefined, number>;
  returned_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  returned_by: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One recorded circulation action: who, when, which copy. */
export interface CirculationEventsTable {
  id: Generated<string>;
  at: ColumnType<Date, Date | string, never>;
  action: 'check_out' | 'return' | 'renew' | 'no_show';
  actor_id: string | null;
  actor_name: string;
  borrower_id: string | null;
  borrower_name: string;
  item_id: string | null;
  title: string;
  copy_id: string | null;
  barcode: string | null;
  loan_id: string | null;
  reservation_id: string | null;
}

/** One notice to one person (decision 031): in the bell always, by e-mail unless its kind is off. */
export interface NoticesTable {
  /** bigint, read as text. */
  id: Generated<string>;
  user_id: string;
  kind:
    | 'hold_offered'
    | 'pickup_reminder'
    | 'due_soon'
    | 'overdue'
    | 'request_status'
    | 'moderation'
    | 'mention';
  /** Names the fact reported; unique per person, so a notice is never made twice. */
  dedupe_key: string;
  title: string;
  body: string;
  link: string;
  /** The moment it is about (an offer's end, a due date): its e-mail carries a calendar entry. */
  calendar_at: ColumnType<Date | null, Date | string | null | undefined, never>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  read_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  email_state: ColumnType<
    'pending' | 'sending' | 'sent' | 'skipped',
    'pending' | 'sending' | 'sent' | 'skipped' | undefined,
    'pending' | 'sending' | 'sent' | 'skipped'
  >;
  email_claimed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  emailed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** One person's choice, for one kind, of whether its notices come by e-mail (no row: they do). */
export interface NoticePreferencesTable {
  user_id: string;
  kind: NoticesTable['kind'];
  email: boolean;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The first answer to a call made with an `Idempotency-Key`, replayed on retries. */
export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  /** The JSON body as first sent. */
  response: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}
