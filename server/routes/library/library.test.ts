import { afterEach, describe, expect, it } from 'vitest';
import { libraryInfoSchema } from '#contract/http/library.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';

describe('GET /api/library', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => testApp?.close());

  it("answers the library's identity from the configuration", async () => {
    testApp = await createTestApp('pglite', {
      env: {
        LIBRARY_NAME: 'Hilltop University Library',
        LIBRARY_ADDRESS: '5 Hill Road',
        LIBRARY_PHONE: '+1 555 0100',
        LIBRARY_EMAIL: 'ask@hilltop.example',
        LIBRARY_HOURS: 'Mon-Fri 8-8; Sat 10-4',
        LIBRARY_INSTAGRAM_URL: 'https://instagram.com/hilltoplib',
      },
    });
    const response = await testApp.app.inject({ method: 'GET', url: '/api/library' });
    expect(response.statusCode).toBe(200);
    const info = libraryInfoSchema.parse(response.json());
    expect(info).toMatchObject({
      name: 'Hilltop University Library',
      address: '5 Hill Road',
      phone: '+1 555 0100',
      email: 'ask@hilltop.example',
      hours: ['Mon-Fri 8-8', 'Sat 10-4'],
      hoursNote: 'Holiday hours may vary.',
    });
    expect(info.social.map((link) => link.network)).toEqual([
      'facebook',
      'x',
      'instagram',
      'linkedin',
    ]);
    expect(info.social[2]?.url).toBe('https://instagram.com/hilltoplib');
  });
});
