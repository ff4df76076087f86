import { z } from 'zod';

// The CSP allows no eval (`script-src 'self'`), so zod's compiled object parsers cannot run here
// anyway. Without this, zod tries `new Function` once to find out, and Chromium records that as a
// CSP violation (an Issue, which costs Lighthouse's best-practices score). zod reads the setting
// when each schema is built, at module load, so this is the first import of main.tsx and of
// api/client.ts: the bundler puts it in the chunk that holds zod and the first schemas, before
// them (`npm run bench:web` shows an Issue again if a change of chunks breaks that).
z.config({ jitless: true });
