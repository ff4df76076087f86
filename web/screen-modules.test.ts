import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteName } from '#contract/routes.ts';
import { SCREEN_MODULES } from './screen-modules.ts';

/** Each `path: ROUTES.x` (or `ROUTES.x` in a list of paths) of app.tsx with the module it loads. */
function lazyScreensOfApp(): Map<RouteName, string> {
  const source = readFileSync(path.join(import.meta.dirname, 'app.tsx'), 'utf8');
  const screens = new Map<RouteName, string>();
  // Read in order: the paths seen since the last route, then either `element:` (a screen in the
  // first bundle, the landing) or the `import('./…')` those paths load.
  let paths: RouteName[] = [];
  for (const [, path, module] of source.matchAll(
    /ROUTES\.(\w+)|element:|import\('\.\/([^']+)'\)/g,
  )) {
    if (path) paths.push(path as RouteName);
    else {
      if (module) for (const name of paths) screens.set(name, module);
      paths = [];
    }
  }
  return screens;
}

describe('screen modules', () => {
  it('name, for every screen app.tsx loads on demand, the module it loads', () => {
    const fromApp = lazyScreensOfApp();
    expect(fromApp.size).toBeGreaterThan(10);
    expect(Object.fromEntries(fromApp)).toEqual(SCREEN_MODULES);
  });

  it('name only real screens', () => {
    for (const name of Object.keys(SCREEN_MODULES)) expect(ROUTES).toHaveProperty(name);
  });
});
