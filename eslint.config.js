// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Folder boundaries (docs/architecture.md), whether an import climbs folders or names one through
 * package.json's `imports` (`#contract/*`, `#server/*`, `#web/*`): `web` and `server` never import
 * each other, and
 * `contract` imports nothing but zod, obscenity (the chat's abuse check, which both sides run:
 * docs/decisions/008-moderation-in-contract.md) and its own files. Its tests may also read files
 * with Node's built-ins.
 */
const CONTRACT_MESSAGE = 'contract/ may import only zod, obscenity and other contract files.';
const contractPatterns = (extra = '') => [
  {
    regex: `^(?!zod$|zod/|obscenity$|\\./|\\.\\./(?:http/|[a-z-]+\\.ts$)|vitest$${extra}).*`,
    message: CONTRACT_MESSAGE,
  },
  { group: ['../../**'], message: CONTRACT_MESSAGE },
];
const SERVER_NOT_WEB = 'server/ must not import web code: share it through contract/.';
const serverPatterns = [
  { group: ['**/web', '**/web/**'], message: SERVER_NOT_WEB },
  { regex: '^#web/', message: SERVER_NOT_WEB },
];
/**
 * The server's domain folders own the library's rules and its database statements; the transports
 * (`routes/` and `http/` for HTTP, `realtime/` for sockets) call them, never the reverse. A
 * refusal is `Refusal` (server/refusal.ts), which both transports answer.
 */
const DOMAIN_FOLDERS = [
  'auth',
  'catalogue',
  'chat',
  'chatbot',
  'commands',
  'db',
  'embeddings',
  'insights',
  'mail',
  'notices',
  'reading',
  'requests',
  'reservations',
  'shelf',
  'users',
];
const domainPatterns = [
  ...serverPatterns,
  {
    regex: '^(?:(?:\\.\\./)+(?:server/)?|#server/)(?:routes|http|realtime)(?:/|$)',
    message:
      'Domain modules must not import routes/, http/ or realtime/: throw a Refusal (server/refusal.ts), and let the caller pass in what HTTP knows.',
  },
];
const WEB_NOT_SERVER = 'web/ must not import server code: share it through contract/.';
const boundaries = {
  web: {
    files: ['web/**/*.{ts,tsx}'],
    patterns: [
      { group: ['**/server', '**/server/**'], message: WEB_NOT_SERVER },
      { regex: '^#server/', message: WEB_NOT_SERVER },
    ],
  },
  server: { files: ['server/**/*.ts'], patterns: serverPatterns },
  // After `server`, whose rule it replaces for these files (and so repeats).
  domain: { files: [`server/{${DOMAIN_FOLDERS.join(',')}}/**/*.ts`], patterns: domainPatterns },
  contract: { files: ['contract/**/*.ts'], patterns: contractPatterns() },
  // After `contract`, so it wins for the tests (the real-data test reads ../shared/data).
  contractTests: { files: ['contract/**/*.test.ts'], patterns: contractPatterns('|node:') },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      '.reports/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...Object.values(boundaries).map(({ files, patterns }) => ({
    files,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
  })),
);
