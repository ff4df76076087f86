import { waitFor } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  REQUEST_STATUSES,
  RESOURCE_TYPES,
  type ResourceRequestRecord,
} from '#contract/http/requests.ts';
import { formatDate } from '../../components/records/format.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import {
  assertRenders,
  expectInert,
  expectShown,
  hostileText,
  hostileWords,
} from '../../test/hostile-text.ts';
import { SimilarRequests } from '../resource-request/similar-requests.tsx';
import { RequestsPage } from './requests-page.tsx';

/*
 * Resource requests show what people typed: the staff's table their name, the title, the
 * description, the institution and the rejection reason; the request form, while a title is
 * typed, other people's open requests that look like it. Property: all of it shows as given,
 * never as markup.
 */

const request = (index: number): fc.Arbitrary<ResourceRequestRecord> =>
  fc.record(
    {
      _id: fc.constant(`req-${index}`),
      student: hostileWords,
      title: hostileWords.map((title) => `${title}#${index}`),
      description: hostileWords,
      resourceType: fc.constantFrom(...RESOURCE_TYPES),
      institutionName: hostileWords,
      status: fc.constantFrom(...REQUEST_STATUSES),
      statusReason: hostileWords,
      supporters: fc.nat(100),
      mine: fc.boolean(),
      supportedByMe: fc.boolean(),
      createdAt: fc.oneof(
        hostileText,
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      ),
    },
    {
      requiredKeys: [
        '_id',
        'student',
        'title',
        'resourceType',
        'institutionName',
        'status',
        'supporters',
        'mine',
        'supportedByMe',
        'createdAt',
      ],
    },
  );

const match = (index: number): fc.Arbitrary<ResourceRequestRecord> =>
  fc.record({
    _id: fc.constant(`req-${index}`),
    student: hostileWords,
    title: hostileWords.map((title) => `${title}#${index}`),
    resourceType: fc.constantFrom(...RESOURCE_TYPES),
    institutionName: hostileWords,
    status: fc.constantFrom(...REQUEST_STATUSES),
    supporters: fc.nat(100),
    mine: fc.boolean(),
    supportedByMe: fc.boolean(),
    createdAt: fc.constant('2026-03-01T10:00:00.000Z'),
  });

describe('resource requests (fast-check)', () => {
  it('shows hostile requests as text', async () => {
    await assertRenders(
      fc
        .integer({ min: 1, max: 4 })
        .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => request(index)))),
      async (requests) => {
        mockApi({ 'GET /faculty/get-req': () => ({ body: { data: requests } }) });
        renderScreen(<RequestsPage />, '/requests', testUser({ role: 'faculty' }));
        await waitFor(() =>
          expect(document.querySelectorAll('tbody tr')).toHaveLength(requests.length),
        );
        const rows = document.querySelectorAll('tbody tr');
        requests.forEach((sent, index) => {
          const row = rows[index]!;
          expect(row.querySelector('th')?.textContent).toBe(sent.title);
          const cells = row.querySelectorAll('td');
          expect(cells[0]?.textContent).toBe(sent.student);
          expect(cells[1]?.textContent).toBe(sent.description ?? 'No description');
          expect(cells[3]?.textContent).toBe(sent.institutionName);
          expect(cells[4]?.textContent).toBe(formatDate(sent.createdAt));
          if (sent.status === 'rejected' && sent.statusReason)
            expectShown([`Reason: ${sent.statusReason}`], row);
        });
        expectInert();
      },
    );
  });

  it('shows hostile matches for a hostile title as text', async () => {
    await assertRenders(
      fc.record({
        typed: hostileWords.filter((text) => text.trim().length >= 3),
        matches: fc
          .integer({ min: 1, max: 3 })
          .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => match(index)))),
      }),
      async ({ typed, matches }) => {
        const calls = mockApi({
          'GET /users/requests/similar': () => ({ body: { payload: matches } }),
        });
        renderScreen(<SimilarRequests title={typed} />, '/', testUser());
        await waitFor(() =>
          expect(document.querySelector('#similar-requests-title')).not.toBeNull(),
        );
        // The typed title reached the server as it was typed (trimmed), not cut at a '&' or '#'
        // (a lone surrogate cannot travel in an address: it arrives as U+FFFD).
        expect(calls[0]?.search.get('title')).toBe(
          typed.trim().replace(/[\uD800-\uDFFF]/gu, '\uFFFD'),
        );
        const items = document.querySelectorAll('li');
        expect(items).toHaveLength(matches.length);
        matches.forEach((sent, index) =>
          expect(items[index]?.querySelector('span span')?.textContent).toBe(sent.title),
        );
        expectInert();
      },
    );
  });
});
