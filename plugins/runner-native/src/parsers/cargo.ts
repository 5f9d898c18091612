import type { TestOutcome } from '@testkeeper/kernel';
import { clip, type ParsedTests } from './parsed-tests.js';

const TEST_LINE = /^test (.+?) \.\.\. (ok|FAILED|ignored)(?:, (.*))?$/;
const SUMMARY = /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out/;
const FAILURE_HEADER = /^---- (.+?) stdout ----$/;

/**
 * Reads libtest's human output of `cargo test`. Counts come from the `test result:` summary line of
 * every test binary (unit tests, each integration file, doc-tests), added up; per-test lines give
 * names and statuses, the `---- name stdout ----` blocks the failure messages. A compile error is
 * reported as a build error, never as a run with zero tests.
 */
export function parseCargoOutput(stdout: string, stderr: string): ParsedTests {
  const lines = stdout.split(/\r?\n/);
  const tests: TestOutcome[] = [];
  const sums = { passed: 0, failed: 0, ignored: 0, binaries: 0 };
  const messages = new Map<string, string>();
  let current: { name: string; lines: string[] } | null = null;

  for (const line of lines) {
    const header = FAILURE_HEADER.exec(line);
    if (header) {
      if (current) messages.set(current.name, current.lines.join('\n'));
      current = { name: header[1]!, lines: [] };
      continue;
    }
    if (current && (line === 'failures:' || SUMMARY.test(line))) {
      messages.set(current.name, current.lines.join('\n'));
      current = null;
    }
    if (current) {
      current.lines.push(line);
      continue;
    }
    const t = TEST_LINE.exec(line);
    if (t) {
      const name = t[1]!.replace(/ - should panic(?: with .*)?$/, '');
      const status = t[2] === 'ok' ? 'passed' : t[2] === 'FAILED' ? 'failed' : 'skipped';
      tests.push({ name, status, duration_ms: 0, ...(status === 'skipped' && t[3] ? { failure_message: `ignored: ${t[3]}` } : {}) });
      continue;
    }
    const s = SUMMARY.exec(line);
    if (s) {
      sums.passed += Number(s[1]) + Number(s[4]); // benchmarks run under `cargo test` count as passed
      sums.failed += Number(s[2]);
      sums.ignored += Number(s[3]);
      sums.binaries += 1;
    }
  }
  if (current) messages.set(current.name, current.lines.join('\n'));
  for (const t of tests) {
    const m = messages.get(t.name);
    if (t.status === 'failed' && m !== undefined) t.failure_message = panicMessage(m);
  }

  const parsed: ParsedTests = {
    tests,
    passed: sums.passed,
    failed: sums.failed,
    skipped: sums.ignored,
    total: sums.passed + sums.failed + sums.ignored,
  };
  const buildError = compileError(stderr, sums.binaries);
  if (buildError) parsed.buildError = buildError;
  return parsed;
}

/** The panic text without the thread header noise and the backtrace. */
function panicMessage(block: string): string {
  const kept: string[] = [];
  for (const line of block.split('\n')) {
    if (/^stack backtrace:/.test(line) || /^note: (Some details|run with `RUST_BACKTRACE)/.test(line)) break;
    kept.push(line.replace(/^thread '.*?'(?: \(\d+\))? panicked at /, 'panicked at '));
  }
  return clip(kept.join('\n'));
}

/** Compiler errors from stderr: `error[E...]` blocks and `could not compile`, or any fatal cargo error. */
function compileError(stderr: string, binariesRun: number): string | undefined {
  const lines = stderr.split(/\r?\n/);
  const couldNotCompile = lines.some((l) => /^error: could not compile/.test(l));
  if (!couldNotCompile && binariesRun > 0) return undefined;
  const start = lines.findIndex((l) => /^error(\[E\d+\])?:/.test(l));
  if (start < 0) return undefined;
  // `error: test failed` lines only say which binary failed; they are not build errors.
  if (!couldNotCompile && lines.slice(start).every((l) => !/^error/.test(l) || /^error: (test failed|\d+ targets? failed)/.test(l))) return undefined;
  const body = lines.slice(start).filter((l) => !/^warning: build failed, waiting/.test(l));
  return clip(body.join('\n'), 4000);
}
