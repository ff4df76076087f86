import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import fc from 'fast-check';
import nodeConsole from 'node:console';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_KEY } from '../../api/session.ts';
import { testUser } from '../../test/api-mock.tsx';
import { assertRenders, expectInert, hostileText } from '../../test/hostile-text.ts';
import { driveFileId, drivePreviewUrl } from './drive-link.ts';
import { ReaderPage } from './reader-page.tsx';

/*
 * The reader embeds a Google Drive preview for a link (from a course material or typed in) and
 * keeps the person's notes in this browser. Property: whatever the link, the only frame is
 * Drive's preview of a well-formed file id; a note kept by the seed's reader comes back as written
 * (its surrounding blank lines aside), as text.
 */

const FILE_ID = 'A'.repeat(10) + '_b-9'.repeat(5);
const USER = testUser({ id: 'user-1' });

const link = fc.oneof(
  hostileText,
  fc.webUrl(),
  fc.constantFrom(
    `https://drive.google.com/file/d/${FILE_ID}/view`,
    `https://drive.google.com/open?id=${FILE_ID}`,
    `javascript:alert(1)//drive.google.com/file/d/${FILE_ID}/view`,
    `https://evil.example/d/${FILE_ID}"><script>alert(1)</script>`,
    `https://drive.google.com/file/d/${FILE_ID}%2F..%2F..%2Fevil/view`,
  ),
  hostileText.map((text) => `https://drive.google.com/file/d/${FILE_ID}${text}/view`),
);

function renderReader(driveLink: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, USER);
  const router = createMemoryRouter([{ path: '/reader', element: <ReaderPage /> }], {
    initialEntries: [{ pathname: '/reader', state: { driveLink } }],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  localStorage.clear();
  // happy-dom loads no frame and says so for each preview, on the console it was given (Node's
  // own, not the page's): expected here.
  vi.spyOn(nodeConsole, 'error').mockImplementation(() => {});
});

describe('reader (fast-check)', () => {
  it('finds only well-formed Drive file ids, and previews them on Drive only', () => {
    fc.assert(
      fc.property(link, (value) => {
        const id = driveFileId(value);
        if (id === null) return;
        expect(id).toMatch(/^[A-Za-z0-9_-]{25,}$/);
        expect(drivePreviewUrl(id)).toBe(`https://drive.google.com/file/d/${id}/preview`);
      }),
      { numRuns: 300 },
    );
  });

  it('frames only Drive’s preview and gives back hostile notes exactly, as text', async () => {
    await assertRenders(
      fc.record({ driveLink: link, notes: hostileText }),
      ({ driveLink, notes }) => {
        localStorage.clear();
        const id = driveLink ? driveFileId(driveLink) : null;
        // Kept as the seed's reader kept it: one free text per person per file.
        if (id) localStorage.setItem(`digi.notes.${USER.id}.${id}`, notes);
        renderReader(driveLink);
        const frame = document.querySelector('iframe');
        expect(frame?.getAttribute('src') ?? null).toBe(id ? drivePreviewUrl(id) : null);
        const kept = notes.replace(/\r\n?/g, '\n').trim();
        const shown = [...document.querySelectorAll('ol li p')].map((note) => note.textContent);
        expect(shown).toEqual(id && kept !== '' ? [kept] : []);
        expectInert({ tags: ['iframe'] });
      },
      12,
    );
  });
});
