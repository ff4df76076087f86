// @ts-check
/**
 * `node scripts/run-compiled.mjs <script.ts> [arguments]`: runs a TypeScript script of this
 * repository as one plain JavaScript module, compiled by esbuild just before it starts, instead of
 * through tsx's loader. `npm run import` uses it.
 *
 * Why: tsx compiles every module while it is loaded, in module hooks that Node runs on a thread of
 * their own with a second V8 isolate, and keeps the compiled source with its inline source map.
 * For the importer that was about 60 MB of its 340 MB peak (bench/README.md, "Memory"); compiled
 * ahead, the same code runs in plain `node`. Packages stay outside the bundle and are loaded from
 * node_modules as usual. This file is JavaScript because it is what runs before anything can
 * compile TypeScript.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Inside the repository, so that the bundle's imports of packages resolve to its node_modules. */
const OUT_DIR = path.join(ROOT, 'node_modules', '.cache', 'digi-library');

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('Usage: node scripts/run-compiled.mjs <script.ts> [arguments]');
  process.exit(1);
}
const source = path.resolve(entry);

// esbuild as tsx (a dependency of the app, not only of development) brings it.
const require = createRequire(import.meta.url);
/** @type {typeof import('esbuild')} */
const esbuild = createRequire(require.resolve('tsx/package.json'))('esbuild');

/**
 * A bundled module's `import.meta` is the bundle's, so each source file's own `import.meta.url`,
 * `.dirname` and `.filename` become literals (the migrations folder is found through them).
 * @type {import('esbuild').Plugin}
 */
const ownImportMeta = {
  name: 'own-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async ({ path: file }) => {
      const text = await readFile(file, 'utf8');
      return {
        loader: file.endsWith('x') ? 'tsx' : 'ts',
        contents: text
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(file)))
          .replaceAll('import.meta.filename', JSON.stringify(file))
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href)),
      };
    });
  },
};

const result = await esbuild.build({
  entryPoints: [source],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: `node${process.versions.node}`,
  packages: 'external',
  write: false,
  logLevel: 'warning',
  plugins: [ownImportMeta],
});
// The build runs in esbuild's own process; end it rather than leave it waiting beside the script.
await esbuild.stop();

mkdirSync(OUT_DIR, { recursive: true });
const outfile = path.join(
  OUT_DIR,
  `${path
    .relative(ROOT, source)
    .replace(/\.tsx?$/, '')
    .replaceAll(/[\\/:]/g, '_')}.mjs`,
);
// Written whole under another name first: a second run starting meanwhile never reads half a file.
const partial = `${outfile}.${process.pid}`;
try {
  writeFileSync(partial, result.outputFiles[0]?.contents ?? '');
  renameSync(partial, outfile);
} finally {
  rmSync(partial, { force: true });
}

// The script reads its arguments from process.argv, as if it had been started itself.
process.argv = [process.argv[0] ?? process.execPath, source, ...args];
await import(pathToFileURL(outfile).href);
