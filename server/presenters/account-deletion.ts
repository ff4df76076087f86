import { DELETED_ACCOUNT_NAME, type AccountDeletionPreview } from '#contract/http/users.ts';
import type { DeletionPreview } from '../users/delete-account.ts';
import { isoInstant } from './instant.ts';

/** `GET /api/users/me/deletion`: what deleting one's account would do. */
export function presentDeletionPreview(preview: DeletionPreview): AccountDeletionPreview {
  return {
    openLoans: preview.openLoans.map((loan) => ({
      title: loan.title,
      dueAt: isoInstant(loan.due_at),
    })),
    reservations: preview.reservations,
    holds: preview.holds,
    requests: preview.requests,
    roomsCreated: preview.roomsCreated,
    messagesSent: preview.messagesSent,
    messagesShownAs: DELETED_ACCOUNT_NAME,
    materialsPublished: preview.materialsPublished,
    confirmWith: preview.hasPassword ? 'password' : 'email',
    lastLibrarian: preview.lastLibrarian,
  };
}
