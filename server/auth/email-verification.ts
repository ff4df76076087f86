import { EMAIL_NOT_VERIFIED_CODE, emailNotVerifiedMessage } from '#contract/http/users.ts';
import { Refusal } from '../refusal.ts';

/**
 * E-mail verification (decision 026): better-auth signs the link's token and marks the address
 * verified when it is opened (its mail is `verificationMail` in ./auth.ts); here, the refusal of
 * reserving, filing a request, creating a chat room and sending a message to an account that has
 * not opened it yet.
 */

/** The refusal of an action that needs a verified address, naming where the link went. */
export function emailNotVerified(email: string): Refusal {
  return new Refusal(403, emailNotVerifiedMessage(email), undefined, EMAIL_NOT_VERIFIED_CODE);
}

/** Refuses (403, `EMAIL_NOT_VERIFIED`) a user whose e-mail address is not verified yet. */
export function requireVerifiedEmail(user: { email: string; email_verified: boolean }): void {
  if (!user.email_verified) throw emailNotVerified(user.email);
}
