/**
 * `npm run bench:import-marc [records] [--xml] [--quick]`: writes `records` (default 100,000)
 * MARC 21 records to a temporary file (ISO 2709, or MARCXML with `--xml`), each with authors,
 * subjects, a summary and two Koha 952 copies, half of them with an ISBN; imports it into a fresh
 * database of each engine with `importFile` (what `npm run import -- marc` runs) and reports
 * records per second, the CPU time it used and its peak resident memory during the import. The
 * file is written by a child process, so the memory measured is the import's own.
 * Target (issue 20): at least 2,000 records/s on PGlite, memory flat under 300 MB.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { MarcRecord, type MarcField } from '@natlibfi/marc-record';
import { ISO2709, MARCXML } from '@natlibfi/marc-record-serializers';
import { importFile } from '#server/catalogue/import/import-file.ts';
import { benchDatabases, machineLine } from './lib.ts';

const args = process.argv.slice(2);
/** `--write <file>`: the child that writes the file. */
const writeTo = args.includes('--write') ? args[args.indexOf('--write') + 1] : undefined;
const quick = args.includes('--quick');
const xml = args.includes('--xml');
const records = Number(args.find((arg) => /^\d+$/.test(arg)) ?? (quick ? 10_000 : 100_000));
const engines = quick ? ['PGlite'] : process.env.BENCH_ENGINES?.split(',');

const WORDS = ['harbour', 'lantern', 'meridian', 'quarry', 'willow', 'cipher', 'tundra', 'orchid'];
const word = (n: number) => WORDS[n % WORDS.length]!;

/** An ISBN-13 in the 978-0 group (every registrant range there is assigned) with its check digit. */
function isbn(n: number): string {
  const body = `9780${String(n).padStart(8, '0')}`;
  const sum = [...body].reduce((total, digit, i) => total + Number(digit) * (i % 2 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

const data = (tag: string, ...subfields: [string, string][]): MarcField => ({
  tag,
  ind1: ' ',
  ind2: ' ',
  subfields: subfields.map(([code, value]) => ({ code, value })),
});

function record(n: number): MarcRecord {
  const fields: MarcField[] = [
    { tag: '001', value: `bench-${n}` },
    ...(n % 2 === 0 ? [data('020', ['a', isbn(n)])] : []),
    { ...data('100', ['a', `${word(n)}, Author ${n % 977},`]), ind1: '1' },
    data('245', ['a', `The ${word(n)} of ${word(n >> 3)} :`], ['b', `volume ${n} /`]),
    data('264', ['b', `${word(n >> 5)} Press,`], ['c', `${1900 + (n % 125)}.`]),
    data('520', ['a', `A study of ${word(n)} and ${word(n >> 2)} in ${n % 50} chapters.`]),
    data('650', ['a', `${word(n >> 1)} studies.`]),
    data('650', ['a', `${word(n >> 4)}.`]),
    data('952', ['a', 'MAIN'], ['o', `QA ${n % 999}`], ['p', `BX${n}A`]),
    data('952', ['a', 'WEST'], ['o', `QA ${n % 999}`], ['p', `BX${n}B`], ['7', n % 10 ? '0' : '1']),
  ];
  // Made without the constructor's schema check (0.5 ms a record): these fields are known good.
  const marc = new MarcRecord();
  marc.leader = '00000nam a2200000 a 4500';
  marc.fields = fields;
  return marc;
}

async function writeRecords(file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  if (xml)
    await write(
      '<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim">\n',
    );
  for (let n = 1; n <= records; n += 1) {
    await write(
      xml ? `${MARCXML.to(record(n), { omitDeclaration: true })}\n` : ISO2709.to(record(n)),
    );
  }
  if (xml) await write('</collection>\n');
  out.end();
  await once(out, 'finish');
}

if (writeTo) {
  await writeRecords(writeTo);
  process.exit(0);
}

console.log(machineLine());
const folder = mkdtempSync(path.join(tmpdir(), 'digi-bench-marc-'));
const file = path.join(folder, xml ? 'records.xml' : 'records.mrc');
try {
  const writing = performance.now();
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, import.meta.filename, ...args, '--write', file],
    { stdio: 'inherit' },
  );
  if (child.status !== 0) throw new Error(`writing the records failed (${child.status})`);
  console.log(
    `${records.toLocaleString('en-US')} ${xml ? 'MARCXML' : 'ISO 2709'} records, ${(statSync(file).size / 2 ** 20).toFixed(1)} MB, written in ${((performance.now() - writing) / 1000).toFixed(1)} s`,
  );
  for (const { name, handle, dispose } of await benchDatabases({ engines })) {
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const before = process.memoryUsage().rss;
    const start = performance.now();
    const startCpu = process.cpuUsage();
    const { counts, copies } = await importFile(handle.db, 'marc', file);
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(startCpu);
    // The CPU this process used (PGlite's work included, PostgreSQL's server not) tells what a
    // record costs on a machine others are using too, where wall time follows their load.
    const cpuMs = (cpu.user + cpu.system) / 1000;
    clearInterval(sampler);
    console.log(
      `${name}: ${counts.rows.toLocaleString('en-US')} records (${counts.inserted.toLocaleString('en-US')} items, ${(copies?.inserted ?? 0).toLocaleString('en-US')} copies, ${counts.skipped} skipped) in ${seconds.toFixed(1)} s = ${Math.round(counts.rows / seconds).toLocaleString('en-US')} records/s; ` +
        `this process's CPU ${(cpuMs / 1000).toFixed(1)} s = ${(cpuMs / counts.rows).toFixed(3)} ms a record; ` +
        `resident memory ${Math.round(before / 2 ** 20)} MB before, peak ${Math.round(peak / 2 ** 20)} MB; ` +
        `load average ${loadavg()
          .map((load) => load.toFixed(1))
          .join(' ')} after`,
    );
    await dispose();
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
