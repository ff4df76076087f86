import type { Selectable } from 'kysely';
import type { ResourceRequestRecord } from '#contract/http/requests.ts';
import type { ResourceRequestsTable } from '../db/schema.ts';
import { isoInstant } from './instant.ts';

/** A resource request as the caller (`viewerId`) sees it. */
export function presentRequest(
  row: Selectable<ResourceRequestsTable> & { supported_by_me: boolean },
  viewerId: string,
): ResourceRequestRecord {
  const mine = row.requester_id === viewerId;
  return {
    _id: row.id,
    student: row.requester_name,
    title: row.title,
    ...(row.description ? { description: row.description } : {}),
    resourceType: row.resource_type,
    institutionName: row.institution_name,
    status: row.status,
    ...(row.status_reason ? { statusReason: row.status_reason } : {}),
    ...(row.status_changed_at ? { statusChangedAt: isoInstant(row.status_changed_at) } : {}),
    supporters: row.supporters,
    mine,
    supportedByMe: mine || row.supported_by_me,
    createdAt: isoInstant(row.created_at),
  };
}
