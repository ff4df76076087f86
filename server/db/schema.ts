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
  /** ISBN-10, zero-padded, upper-case X (books). */
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
  /** Physical copies the library holds (reservations). */
  copies: ColumnType<number, number | undefined, number>;
  /** Copies owned but not lendable through reservations now (on loan elsewhere, in repair). */
  copies_unavailable: ColumnType<number, number | undefined, number>;
  /** Pages of held text in `item_pages`. */
  page_count: ColumnType<number, number | undefined, number>;
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Generated: weighted full-text vector. Never written. */
  search: ColumnType<string, never, never>;
}

/** One page of a held book's text. */
export interface ItemPagesTable {
  item_id: string;
  page_number: number;
  content: string;
}

/** Distinct catalogue words for "did you mean". */
export interface SearchWordsTable {
  word: string;
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
  search_words: SearchWordsTable;
  schema_migrations: SchemaMigrationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  rate_limits: RateLimitsTable;
  auth_rate_limits: AuthRateLimitsTable;
  verifications: VerificationsTable;
  resource_requests: ResourceRequestsTable;
  request_supporters: RequestSupportersTable;
  reservations: ReservationsTable;
  idempotency_keys: IdempotencyKeysTable;
  chat_rooms: ChatRoomsTable;
  chat_messages: ChatMessagesTable;
  chat_servers: ChatServersTable;
  chat_presence: ChatPresenceTable;
  chat_send_times: ChatSendTimesTable;
  demo_seeds: DemoSeedsTable;
  data_versions: DataVersionsTable;
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
  created_at: ColumnType<Date, Date | string | undefined, never>;
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
