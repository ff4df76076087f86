import type { Notice } from '#contract/http/notices.ts';
import type { NoticeRow } from '../notices/store.ts';
import { isoInstant } from './instant.ts';

/** A notice as its recipient sees it. */
export function presentNotice(row: NoticeRow): Notice {
  return {
    id: String(row.id),
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: isoInstant(row.created_at),
    readAt: row.read_at ? isoInstant(row.read_at) : null,
  };
}
