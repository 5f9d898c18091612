/**
 * Runs every scripts/bench/*.bench.mjs and prints one table: figure, target, baseline, ratio and
 * whether the target is met. A missed target is marked, never fatal; a benchmark that crashes is
 * reported and makes the exit code 1.
 *
 * Module contract: `export default async function run({ root, log })` returning
 * `[{ name, value, unit, target?, baseline?, ratio?, note? }]`; `target` is a string such as
 * "≤ 400" or "≥ 2000" (a bare number means "at most").
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const only = process.argv.slice(2);

/** Parses a target into a check; undefined when there is no target. */
export function parseTarget(target) {
  if (target === undefined || target === null || target === '') return undefined;
  if (typeof target === 'number') return { op: '≤', limit: target };
  const m = /^\s*(≤|<=|≥|>=|<|>|=)\s*([-\d.,_]+)/.exec(String(target));
  if (!m) return undefined;
  const op = { '<=': '≤', '>=': '≥' }[m[1]] ?? m[1];
  return { op, limit: Number(m[2].replace(/[,_]/g, '')) };
}

export function meets(value, target) {
  const t = parseTarget(target);
  if (!t || typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  switch (t.op) {
    case '≤': return value <= t.limit;
    case '<': return value < t.limit;
    case '≥': return value >= t.limit;
    case '>': return value > t.limit;
    default: return value === t.limit;
  }
}

const fmt = (v) => (v === undefined || v === null ? '' : typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 3 }) : String(v));

function printTable(rows) {
  const header = ['benchmark', 'value', 'target', 'baseline', 'ratio', 'status'];
  const lines = rows.map((r) => {
    const ok = meets(r.value, r.target);
    const ratio = r.ratio ?? (typeof r.baseline === 'number' && r.baseline !== 0 ? Number((r.value / r.baseline).toFixed(2)) : undefined);
    return [
      `${r.module}: ${r.name}`,
      `${fmt(r.value)} ${r.unit ?? ''}`.trim(),
      r.target === undefined ? '' : `${fmt(r.target)} ${r.unit ?? ''}`.trim(),
      r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit ?? ''}`.trim(),
      ratio === undefined ? '' : `${fmt(ratio)}x`,
      ok === undefined ? '' : ok ? 'ok' : 'MISSED',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(line(l));
  const notes = rows.filter((r) => r.note);
  if (notes.length) {
    console.log('\nNotes:');
    for (const r of notes) console.log(`  ${r.module}: ${r.name}: ${r.note}`);
  }
  const missed = rows.filter((r) => meets(r.value, r.target) === false);
  console.log(`\n${rows.length} figures, ${missed.length} target(s) missed${missed.length ? ': ' + missed.map((r) => r.name).join('; ') : ''}.`);
  console.log('ratio = value / baseline (the bare MCP SDK server measured in the same run).');
}

async function main() {
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.bench.mjs'))
    .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
    .sort();
  const rows = [];
  let crashed = 0;
  for (const file of files) {
    const module = file.slice(0, -'.bench.mjs'.length);
    const log = (msg) => process.stderr.write(`[${module}] ${msg}\n`);
    const started = Date.now();
    try {
      const { default: run } = await import(pathToFileURL(path.join(here, file)).href);
      const result = await run({ root, log });
      for (const r of result) rows.push({ module, ...r });
      log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (err) {
      crashed++;
      process.stderr.write(`[${module}] FAILED: ${err?.stack ?? err}\n`);
    }
  }
  console.log('');
  printTable(rows);
  if (crashed) {
    console.log(`\n${crashed} benchmark module(s) crashed; see above.`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
