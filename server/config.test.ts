import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has working defaults for everything', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.logLevel).toBe('info');
    expect(config.demoData).toBe(true);
    expect(config.semanticSearch).toBe(true);
    expect(config.library.name).toBe('Digi Library');
    expect(config.library.hours).toEqual([
      'Monday-Friday: 8:00 AM-10:00 PM',
      'Saturday: 9:00 AM-6:00 PM',
      'Sunday: 12:00 PM-8:00 PM',
    ]);
    expect(config.library.hoursNote).toBe('Holiday hours may vary.');
    expect(Object.keys(config.library.social)).toEqual(['facebook', 'x', 'instagram', 'linkedin']);
  });

  it('reads every variable it documents', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/digi',
      DATABASE_URL: 'postgres://digi:secret@db.internal:5432/digi',
      PUBLIC_URL: 'https://library.example.edu/',
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      SEMANTIC_SEARCH: 'false',
      LIBRARY_NAME: 'Campus Library',
      LIBRARY_ADDRESS: '2 College Road',
      LIBRARY_PHONE: '+44 20 7946 0000',
      LIBRARY_EMAIL: 'help@library.example.edu',
      LIBRARY_HOURS: 'Mon-Fri 9-5; Sat 10-2',
      LIBRARY_HOURS_NOTE: 'Closed on public holidays.',
      LIBRARY_FACEBOOK_URL: 'https://facebook.com/campuslib',
      LIBRARY_X_URL: 'https://x.com/campuslib',
      LIBRARY_INSTAGRAM_URL: 'https://instagram.com/campuslib',
      LIBRARY_LINKEDIN_URL: 'https://linkedin.com/company/campuslib',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/digi',
      databaseUrl: 'postgres://digi:secret@db.internal:5432/digi',
      publicUrl: 'https://library.example.edu',
      logLevel: 'warn',
      demoData: false,
      semanticSearch: false,
      library: {
        name: 'Campus Library',
        address: '2 College Road',
        phone: '+44 20 7946 0000',
        email: 'help@library.example.edu',
        hours: ['Mon-Fri 9-5', 'Sat 10-2'],
        hoursNote: 'Closed on public holidays.',
        social: {
          facebook: 'https://facebook.com/campuslib',
          x: 'https://x.com/campuslib',
          instagram: 'https://instagram.com/campuslib',
          linkedin: 'https://linkedin.com/company/campuslib',
        },
      },
    });
  });

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['no', false],
    // Empty is unset: the default, on.
    ['', true],
  ])('reads SEMANTIC_SEARCH=%s as %s', (value, expected) => {
    expect(loadConfig({ SEMANTIC_SEARCH: value }).semanticSearch).toBe(expected);
  });

  it('derives PUBLIC_URL from PORT when unset, and treats empty values as unset', () => {
    expect(loadConfig({ PORT: '4000', PUBLIC_URL: '' }).publicUrl).toBe('http://localhost:4000');
    expect(loadConfig({ DATABASE_URL: '  ' }).databaseUrl).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '3.5'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['LOG_LEVEL', 'loud'],
    ['DEMO_DATA', 'maybe'],
    ['SEMANTIC_SEARCH', 'off'],
    ['LIBRARY_EMAIL', 'not-an-email'],
    ['LIBRARY_X_URL', 'javascript:alert(1)'],
    ['NODE_ENV', 'staging'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`${name}:`);
    expect((error as ConfigError).message).toContain(value);
  });

  it('needs every part of a sign-in provider, naming what is missing', () => {
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'abc' })).toThrow(
      /GOOGLE_CLIENT_SECRET: is required when GOOGLE_CLIENT_ID is set/,
    );
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.uni.edu', OIDC_CLIENT_ID: 'x' })).toThrow(
      /OIDC_CLIENT_SECRET: is required when OIDC_ISSUER and OIDC_CLIENT_ID are set/,
    );
    const config = loadConfig({
      OIDC_ISSUER: 'https://id.uni.edu/realms/campus/',
      OIDC_CLIENT_ID: 'digi',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_LABEL: 'UniLogin',
    });
    expect(config.oidc).toEqual({
      issuer: 'https://id.uni.edu/realms/campus',
      clientId: 'digi',
      clientSecret: 's3cret',
      label: 'UniLogin',
    });
    expect(config.google).toBeUndefined();
  });

  it('requires AUTH_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /AUTH_SECRET: is required in production/,
    );
    expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32) }).authSecret).toBe(
      'x'.repeat(32),
    );
  });

  it('lists every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT:[\s\S]*LOG_LEVEL:/);
  });
});
