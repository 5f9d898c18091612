import type { TestOutcome } from '@testkeeper/kernel';
import { clip, countOutcomes, type ParsedTests } from './parsed-tests.js';

const TESTCASE = /<testcase\b((?:\s+[\w:.-]+\s*=\s*"[^"]*")*)\s*(?:\/>|>([\s\S]*?)<\/testcase>)/g;
const OUTCOME = /<(failure|error|skipped)\b((?:\s+[\w:.-]+\s*=\s*"[^"]*")*)\s*(?:\/>|>([\s\S]*?)<\/\1>)/;
const ATTR = /([\w:.-]+)\s*=\s*"([^"]*)"/g;

/**
 * Reads the JUnit XML pytest writes with `--junitxml`. A `<failure>` or `<error>` (setup errors,
 * collection errors) is a failed test; `<skipped>` covers skips and xfails. The document shape is
 * fixed by pytest, so a small scanner is enough and no XML library is needed.
 */
export function parseJUnitXml(xml: string): ParsedTests {
  const tests: TestOutcome[] = [];
  for (const m of xml.matchAll(TESTCASE)) {
    const attrs = attributes(m[1] ?? '');
    const body = m[2] ?? '';
    const name = attrs.classname ? `${attrs.classname}::${attrs.name ?? ''}` : (attrs.name ?? '');
    const duration_ms = Math.round(Number(attrs.time ?? 0) * 1000);
    const o = OUTCOME.exec(body);
    if (!o) {
      tests.push({ name, status: 'passed', duration_ms });
      continue;
    }
    const oattrs = attributes(o[2] ?? '');
    const message = oattrs.message ?? decode((o[3] ?? '').trim());
    const status = o[1] === 'skipped' ? 'skipped' : 'failed';
    const prefix = o[1] === 'error' ? 'error: ' : '';
    tests.push({ name, status, duration_ms, ...(message ? { failure_message: clip(prefix + message) } : {}) });
  }
  return { tests, ...countOutcomes(tests) };
}

/** The `<testsuite>` totals pytest itself reports (used to cross-check). */
export function junitSuiteTotals(xml: string): { tests: number; failures: number; errors: number; skipped: number } {
  const totals = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  for (const m of xml.matchAll(/<testsuite\b((?:\s+[\w:.-]+\s*=\s*"[^"]*")*)\s*\/?>/g)) {
    const a = attributes(m[1] ?? '');
    totals.tests += Number(a.tests ?? 0);
    totals.failures += Number(a.failures ?? 0);
    totals.errors += Number(a.errors ?? 0);
    totals.skipped += Number(a.skipped ?? 0);
  }
  return totals;
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(ATTR)) out[m[1]!] = decode(m[2]!);
  return out;
}

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[e.toLowerCase()]!;
  });
}
