import { z } from 'zod';

/*
 * The notices' real-time contract (issue 21): the server tells a person's every socket when their
 * notices change, so the bell's number follows without polling. Declared once here; the server
 * emits it to the person's room and the browser's socket is typed by the same map.
 */

/** `notices_changed`: the recipient's unread count after a new notice or a change of one. */
export const noticesChangedSchema = z.object({ unread: z.number().int().min(0) });
export type NoticesChanged = z.infer<typeof noticesChangedSchema>;

/** The notices' server-to-client events, merged into `ServerToClientEvents` (socket/chat.ts). */
export interface NoticeServerEvents {
  notices_changed: (payload: NoticesChanged) => void;
}
