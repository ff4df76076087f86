import { cleanup, waitFor } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LibraryInfo } from '#contract/http/library.ts';
import { FacultyHomePage } from '../../routes/faculty-home/faculty-home-page.tsx';
import { StudentHomePage } from '../../routes/student-home/student-home-page.tsx';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import {
  assertRenders,
  expectInert,
  expectShown,
  hostileText,
  hostileWords,
} from '../../test/hostile-text.ts';
import { Footer } from './footer.tsx';
import { TopBar } from './top-bar.tsx';

/*
 * The top bar and both home screens show the signed-in person's first name (from their profile,
 * or a provider's display name); the footer the library's name, address, contacts and hours (the
 * server's configuration) with mail, phone and social links. Property: the text shows as given,
 * never as markup, and links are web pages, mail or phone only.
 */

const BRAND_TAGS = ['svg', 'rect', 'path'];

const library: fc.Arbitrary<LibraryInfo> = fc.record({
  name: hostileWords,
  address: hostileWords,
  phone: hostileWords,
  email: hostileWords,
  hours: fc.uniqueArray(hostileWords, { maxLength: 3 }),
  hoursNote: hostileWords,
  // The server's configuration takes only http(s) addresses here (server/config.ts).
  social: fc
    .array(
      fc.record({
        network: fc.constantFrom(
          'facebook' as const,
          'x' as const,
          'instagram' as const,
          'linkedin' as const,
        ),
        label: hostileWords,
        url: fc.webUrl(),
      }),
      { maxLength: 2 },
    )
    .map((links) =>
      links.filter(
        (link, index) => links.findIndex((other) => other.network === link.network) === index,
      ),
    ),
});

describe('layout (fast-check)', () => {
  it('shows the signed-in person’s hostile first name as text: top bar and home screens', async () => {
    await assertRenders(hostileText, (firstName) => {
      mockApi({
        'GET /users/reservations': () => ({ body: { payload: [] } }),
        'GET /users/requests': () => ({ body: { payload: [] } }),
      });
      renderScreen(<TopBar />, '/', testUser({ firstName }));
      const home = document.querySelector('nav[aria-label="Account"] a')!;
      expect(home.textContent).toBe(`Home of ${firstName || 'My home'}`);
      expectInert({ tags: BRAND_TAGS });
      cleanup();
      renderScreen(<StudentHomePage />, '/userprofile', testUser({ firstName }));
      expect(document.querySelector('h1')?.textContent).toBe(`Welcome, ${firstName}`);
      expectInert();
      cleanup();
      renderScreen(
        <FacultyHomePage />,
        '/facultyprofile',
        testUser({ firstName, role: 'faculty' }),
      );
      expect(document.querySelector('h1')?.textContent).toBe(`Welcome, ${firstName}`);
      expectInert();
    });
  });

  it('shows the library’s hostile details in the footer as text, with safe links', async () => {
    await assertRenders(library, async (info) => {
      mockApi({ 'GET /library': () => ({ body: info }) });
      renderScreen(<Footer />, '/');
      await waitFor(() => expect(document.querySelector('footer h2')).not.toBeNull());
      expectShown([info.name, info.address, info.phone, info.email, info.hoursNote, ...info.hours]);
      expectShown(info.social.map((link) => link.label));
      const phone = [...document.querySelectorAll('a')].find((a) =>
        a.getAttribute('href')?.startsWith('tel:'),
      );
      expect(phone?.getAttribute('href')).toMatch(/^tel:[\d+]*$/);
      expectInert({ schemes: ['mailto:', 'tel:'] });
    });
  });
});
