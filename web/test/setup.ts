import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

beforeEach(() => {
  // Unit tests have no server: any request fails at once, as it would offline.
  vi.stubGlobal('fetch', () =>
    Promise.reject(new TypeError('Failed to fetch (no server in unit tests)')),
  );
});

// Each test renders into a clean document.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
