import { describe, expect, it } from 'vitest';
import { isScreenPath, roomPath, ROUTES, screenOf } from './routes.ts';

describe('screen routes', () => {
  it('knows every route of the spec route table', () => {
    for (const route of Object.values(ROUTES)) {
      expect(isScreenPath(route.replace(':roomName', 'study-group'))).toBe(true);
    }
  });

  it('names the screen a path opens', () => {
    expect(screenOf('/')).toBe('landing');
    expect(screenOf('/signin/')).toBe('signIn');
    expect(screenOf(roomPath('Physics 101'))).toBe('chatRoom');
    expect(screenOf('/userprofile/openlibrary')).toBe('librarySearch');
    expect(screenOf('/nope')).toBeUndefined();
  });

  it('accepts a trailing slash and encoded room names', () => {
    expect(isScreenPath('/signin/')).toBe(true);
    expect(isScreenPath(roomPath('Physics 101 / exam prep'))).toBe(true);
    expect(roomPath('a/b')).toBe('/room/a%2Fb');
  });

  it('refuses unknown and nested paths', () => {
    for (const path of [
      '/nope',
      '/signin/extra',
      '/room',
      '/room/a/b',
      '/userprofile/unknown',
      '/API/health',
    ]) {
      expect(isScreenPath(path)).toBe(false);
    }
  });
});
