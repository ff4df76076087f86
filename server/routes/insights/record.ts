import type { FastifyRequest } from 'fastify';
import {
  normaliseTerm,
  sessionTokenOf,
  type InsightEvent,
  type InsightRecorder,
  type InsightWho,
} from '../../insights/recorder.ts';

/** Who caused a request, as the recorder takes it: no statement, nothing stored in clear. */
function whoOf(request: FastifyRequest): InsightWho {
  return { sessionToken: sessionTokenOf(request.headers.cookie), address: request.ip };
}

/** Counts one insight event of this request (in memory; written every few seconds). */
export function recordInsight(
  recorder: InsightRecorder,
  request: FastifyRequest,
  event: InsightEvent,
): void {
  recorder.record(event, whoOf(request));
}

/**
 * Counts a catalogue search: its normalised words under its type tab, and once more as one that
 * found nothing when it did. Only a first page with words counts, so paging is not a new search.
 */
export function recordSearch(
  recorder: InsightRecorder,
  request: FastifyRequest,
  query: { q: string; page: number; type?: string | undefined },
  found: number,
): void {
  const term = normaliseTerm(query.q);
  if (term === '' || query.page !== 1) return;
  const scope = query.type ?? 'all';
  recordInsight(recorder, request, { kind: 'search', scope, subject: term });
  if (found === 0) recordInsight(recorder, request, { kind: 'search_empty', scope, subject: term });
}
