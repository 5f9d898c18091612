import type { TestOutcome } from '@testkeeper/kernel';
import { clip, countOutcomes, type ParsedTests } from './parsed-tests.js';

interface TestEvent {
  Action: string;
  Package?: string;
  ImportPath?: string;
  Test?: string;
  Elapsed?: number;
  Output?: string;
  FailedBuild?: string;
}

const BUILD_FAILED_LINE = /^FAIL\s+(\S+)\s+\[(build|setup) failed\]/;
const NOISE = /^\s*(=== (RUN|PAUSE|CONT|NAME)|--- (PASS|FAIL|SKIP):)/;

/**
 * Reads `go test -json` (test2json events, one per line). Counts are the `pass`/`fail`/`skip`
 * events of tests (subtests included); package-level events only tell whether a package built.
 * Build failures are recognised in every form Go has used: `build-output` events and `FailedBuild`
 * (Go 1.24+), and the plain `FAIL pkg [build failed]` line plus compiler text on stderr (older Go).
 */
export function parseGoTestJson(stdout: string, stderr: string): ParsedTests {
  const outputs = new Map<string, string[]>();
  const tests: TestOutcome[] = [];
  const buildOutput: string[] = [];
  const failedBuilds = new Set<string>();

  for (const raw of stdout.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (!line.startsWith('{')) {
      const m = BUILD_FAILED_LINE.exec(line);
      if (m) failedBuilds.add(m[1]!);
      continue;
    }
    let ev: TestEvent;
    try {
      ev = JSON.parse(line) as TestEvent;
    } catch {
      continue;
    }
    if (ev.Action === 'build-output') {
      if (ev.Output) buildOutput.push(ev.Output.replace(/\n$/, ''));
      continue;
    }
    if (ev.FailedBuild) failedBuilds.add(ev.FailedBuild);
    if (!ev.Test) {
      const m = ev.Action === 'output' && ev.Output ? BUILD_FAILED_LINE.exec(ev.Output) : null;
      if (m) failedBuilds.add(m[1]!);
      continue;
    }
    const key = `${ev.Package ?? ''}.${ev.Test}`;
    if (ev.Action === 'output') {
      const list = outputs.get(key) ?? [];
      list.push(ev.Output ?? '');
      outputs.set(key, list);
    } else if (ev.Action === 'pass' || ev.Action === 'fail' || ev.Action === 'skip') {
      const status = ev.Action === 'pass' ? 'passed' : ev.Action === 'fail' ? 'failed' : 'skipped';
      const outcome: TestOutcome = { name: key, status, duration_ms: Math.round((ev.Elapsed ?? 0) * 1000) };
      if (status !== 'passed') {
        const text = (outputs.get(key) ?? []).join('').split('\n').filter((l) => l.trim() && !NOISE.test(l)).map((l) => l.trim()).join('\n');
        if (text) outcome.failure_message = clip(text);
      }
      tests.push(outcome);
    }
  }

  const parsed: ParsedTests = { tests, ...countOutcomes(tests) };
  if (failedBuilds.size > 0 || buildOutput.length > 0) {
    const detail = buildOutput.length ? buildOutput.join('\n') : stderr.trim();
    const pkgs = [...failedBuilds].join(', ');
    parsed.buildError = clip(`${pkgs ? `build failed for ${pkgs}\n` : ''}${detail}`, 4000);
  }
  return parsed;
}
