import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: ROOT });

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

const RULE = '@typescript-eslint/no-restricted-imports';

describe('folder boundaries (lint)', () => {
  it('forbids web/ from importing server/', async () => {
    expect(
      await ruleIds(
        'web/routes/x.ts',
        "import { buildApp } from '../../server/app.ts';\nvoid buildApp;\n",
      ),
    ).toContain(RULE);
  });

  it('forbids the same through the #server/* and #web/* import aliases', async () => {
    expect(
      await ruleIds(
        'web/routes/x.ts',
        "import { buildApp } from '#server/app.ts';\nvoid buildApp;\n",
      ),
    ).toContain(RULE);
    expect(
      await ruleIds('server/routes/x.ts', "import { App } from '#web/app.tsx';\nvoid App;\n"),
    ).toContain(RULE);
    expect(
      await ruleIds(
        'server/requests/store.ts',
        "import { parseInput } from '#server/http/errors.ts';\nvoid parseInput;\n",
      ),
    ).toContain(RULE);
    expect(
      await ruleIds(
        'contract/http/x.ts',
        "import { loadConfig } from '#server/config.ts';\nvoid loadConfig;\n",
      ),
    ).toContain(RULE);
    expect(
      await ruleIds(
        'web/routes/x.ts',
        "import { ROUTES } from '#contract/routes.ts';\nimport { Button } from '#web/components/ui/button.tsx';\nvoid ROUTES; void Button;\n",
      ),
    ).toEqual([]);
  });

  it('forbids server/ from importing web/', async () => {
    expect(
      await ruleIds('server/routes/x.ts', "import { App } from '../../web/app.tsx';\nvoid App;\n"),
    ).toContain(RULE);
  });

  it('forbids server/ domain folders from importing routes/, http/ or realtime/', async () => {
    expect(
      await ruleIds(
        'server/requests/store.ts',
        "import type { RouteContext } from '../routes/context.ts';\nexport type X = RouteContext;\n",
      ),
    ).toContain(RULE);
    expect(
      await ruleIds(
        'server/reservations/holds.ts',
        "import { parseInput } from '../http/errors.ts';\nvoid parseInput;\n",
      ),
    ).toContain(RULE);
    expect(
      await ruleIds(
        'server/catalogue/import/x.ts',
        "import { enforceRateLimits } from '../../http/rate-limit.ts';\nvoid enforceRateLimits;\n",
      ),
    ).toContain(RULE);
    expect(
      await ruleIds(
        'server/chat/store.ts',
        "import { mountRealtime } from '../realtime/index.ts';\nvoid mountRealtime;\n",
      ),
    ).toContain(RULE);
    expect(
      await ruleIds(
        'server/users/store.ts',
        "import { App } from '../../web/app.tsx';\nvoid App;\n",
      ),
    ).toContain(RULE);
  });

  it('lets domain folders import each other, contract/ (its http/ too) and the refusal', async () => {
    expect(
      await ruleIds(
        'server/requests/store.ts',
        "import { REQUEST_STATUS_LABELS } from '../../contract/http/requests.ts';\nimport { Refusal } from '../refusal.ts';\nimport { findUser } from '../users/store.ts';\nvoid REQUEST_STATUS_LABELS; void Refusal; void findUser;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIds(
        'server/routes/x/index.ts',
        "import { parseInput } from '../../http/errors.ts';\nimport { fileRequest } from '../../requests/store.ts';\nvoid parseInput; void fileRequest;\n",
      ),
    ).toEqual([]);
  });

  it('lets contract/ import only zod, obscenity and contract files', async () => {
    expect(
      await ruleIds(
        'contract/http/x.ts',
        "import { z } from 'zod';\nimport { ROUTES } from '../routes.ts';\nvoid z; void ROUTES;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIds('contract/x.ts', "import Fastify from 'fastify';\nvoid Fastify;\n"),
    ).toContain(RULE);
    expect(
      await ruleIds(
        'contract/x.ts',
        "import { loadConfig } from '#server/config.ts';\nvoid loadConfig;\n",
      ),
    ).toContain(RULE);
    expect(
      await ruleIds('contract/http/x.ts', "import { App } from '../../web/app.tsx';\nvoid App;\n"),
    ).toContain(RULE);
  });

  it('lets contract/ import obscenity, the abuse check both sides run, and nothing else new', async () => {
    expect(
      await ruleIds(
        'contract/x.ts',
        "import { RegExpMatcher } from 'obscenity';\nvoid RegExpMatcher;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIds(
        'contract/x.ts',
        "import { englishDataset } from 'obscenity/dist/preset/english';\nvoid englishDataset;\n",
      ),
    ).toContain(RULE);
    expect(
      await ruleIds(
        'contract/x.ts',
        "import { readFileSync } from 'node:fs';\nvoid readFileSync;\n",
      ),
    ).toContain(RULE);
  });

  it("lets contract/ tests read files with Node's built-ins, and nothing else new", async () => {
    expect(
      await ruleIds(
        'contract/x.test.ts',
        "import { readFileSync } from 'node:fs';\nimport { createModerator } from './moderation.ts';\nvoid readFileSync; void createModerator;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIds('contract/x.test.ts', "import Fastify from 'fastify';\nvoid Fastify;\n"),
    ).toContain(RULE);
    expect(
      await ruleIds(
        'contract/x.test.ts',
        "import { loadConfig } from '#server/config.ts';\nvoid loadConfig;\n",
      ),
    ).toContain(RULE);
  });

  it('lets web/ and server/ import contract/', async () => {
    expect(
      await ruleIds(
        'web/routes/x.ts',
        "import { ROUTES } from '../../contract/routes.ts';\nvoid ROUTES;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIds(
        'server/routes/x.ts',
        "import { ROUTES } from '../../contract/routes.ts';\nvoid ROUTES;\n",
      ),
    ).toEqual([]);
  });
});
