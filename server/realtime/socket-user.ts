import type { Role } from '#contract/http/users.ts';

/** Who a socket belongs to, decided by the server from the session cookie at connection. */
export interface SocketUser {
  id: string;
  role: Role;
  firstName: string;
  /** The name the chat shows: the forum username, else the first name. */
  chatName: string;
  sessionId: string;
  /** The account's e-mail address, which a refusal to an unverified account names. */
  email: string;
  /** Whether it was verified at connection; a link opened since is read again when it matters. */
  emailVerified: boolean;
}
