import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { SCREEN_MODULES, SCREEN_PRELOADS_FILE } from '#web/screen-modules.ts';

const serverPort = Number(process.env.PORT ?? 3000);
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a `.br` and a `.gz` copy beside every text file of the build (source maps aside), so the
 * server sends compressed files without compressing on each request (`preCompressed` in
 * server/http/web-app.ts). Small files are left alone: the saving would not pay for the header.
 * Brotli quality 10 comes within 2 % of the maximum (11) in less than half the time.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'digi-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((file) =>
        /\.(js|css|html|svg|json|txt)$/.test(file),
      );
      await Promise.all(
        files.map(async (file) => {
          const body = await readFile(path.join(outDir, file));
          if (body.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(body, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 10,
                [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
            gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await writeFile(path.join(outDir, `${file}.br`), br);
          await writeFile(path.join(outDir, `${file}.gz`), gz);
        }),
      );
    },
  };
}

/**
 * Writes `screen-preloads.json`: for each screen loaded on demand, the script and style files its
 * code needs beyond what `index.html` already loads. The server names them in the HTML of a deep
 * link (server/http/web-app.ts), so a first visit to /signin fetches the sign-in code together
 * with the app's rather than after the app has started.
 */
function screenPreloads(): Plugin {
  let webRoot = '';
  return {
    name: 'digi-screen-preloads',
    apply: 'build',
    configResolved(config) {
      webRoot = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (output): output is Rollup.OutputChunk => output.type === 'chunk',
      );
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      /** A chunk and every chunk it imports statically, as the browser would load them. */
      const closure = (start: Rollup.OutputChunk) => {
        const seen = new Set<Rollup.OutputChunk>();
        const visit = (chunk: Rollup.OutputChunk) => {
          if (seen.has(chunk)) return;
          seen.add(chunk);
          for (const file of chunk.imports) {
            const imported = byFile.get(file);
            if (imported) visit(imported);
          }
        };
        visit(start);
        return seen;
      };
      const loadedByIndex = new Set(
        chunks.filter((chunk) => chunk.isEntry).flatMap((chunk) => [...closure(chunk)]),
      );
      const preloads: Record<string, { js: string[]; css: string[] }> = {};
      for (const [screen, module] of Object.entries(SCREEN_MODULES)) {
        const facade = path.join(webRoot, module);
        const chunk = chunks.find((candidate) => candidate.facadeModuleId === facade);
        if (!chunk)
          this.error(`screen-modules.ts names ${module}, which the build did not split out`);
        const needed = [...closure(chunk)].filter((candidate) => !loadedByIndex.has(candidate));
        preloads[screen] = {
          js: needed.map((candidate) => `/${candidate.fileName}`),
          css: needed.flatMap((candidate) =>
            [...(candidate.viteMetadata?.importedCss ?? [])].map((file) => `/${file}`),
          ),
        };
      }
      this.emitFile({
        type: 'asset',
        fileName: SCREEN_PRELOADS_FILE,
        source: JSON.stringify(preloads),
      });
    },
  };
}

/**
 * Whether a build writes source maps: only when `SOURCE_MAPS=true` (issue 19). The server serves
 * whatever the build wrote, so a production build would otherwise hand out the app's original
 * source. The development server (`npm run dev`) has its own inline maps either way.
 */
export function buildSourceMaps(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.SOURCE_MAPS === 'true';
}

/** The web app is built into dist/web, which the Fastify server serves on its one port. */
export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), screenPreloads(), precompress()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: buildSourceMaps(),
    target: 'es2022',
  },
  server: {
    port: 5173,
    strictPort: true,
    // In development the API and the socket live on the Fastify server.
    proxy: {
      '/api': `http://127.0.0.1:${serverPort}`,
      '/socket.io': { target: `http://127.0.0.1:${serverPort}`, ws: true },
    },
  },
});
