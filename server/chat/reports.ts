import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Records a report of `roomId` for the moderators; its id, or undefined when the room is gone.
 * `text` is what the server's matcher flagged, or null (see the migration: unmatched text is
 * never kept).
 */
export async function recordReport(
  db: Kysely<Database>,
  report: { reporterId: string; roomId: string; text: string | null },
): Promise<string | undefined> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO chat_reports (reporter_id, room_id, text)
    SELECT ${report.reporterId}, id, ${report.text}::text FROM chat_rooms WHERE id = ${report.roomId}::uuid
    RETURNING id::text AS id
  `.execute(db);
  return rows[0]?.id;
}
