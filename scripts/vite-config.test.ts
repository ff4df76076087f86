import { describe, expect, it, vi } from 'vitest';
import { buildSourceMaps } from '../vite.config.ts';

describe('the web build’s source maps (vite.config.ts)', () => {
  it('are written only when SOURCE_MAPS=true', () => {
    expect(buildSourceMaps({})).toBe(false);
    expect(buildSourceMaps({ SOURCE_MAPS: 'false' })).toBe(false);
    expect(buildSourceMaps({ SOURCE_MAPS: '1' })).toBe(false);
    expect(buildSourceMaps({ NODE_ENV: 'production' })).toBe(false);
    expect(buildSourceMaps({ SOURCE_MAPS: 'true' })).toBe(true);
  });

  it('are off in the configuration a plain `vite build` reads', async () => {
    vi.stubEnv('SOURCE_MAPS', '');
    vi.resetModules();
    try {
      const { default: config } = await import('../vite.config.ts');
      expect(config.build?.sourcemap).toBe(false);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
