import type { RunResult, SandboxResult, TestOutcome } from '@testkeeper/kernel';
import type { ParsedTests } from './parsers/parsed-tests.js';

export interface ResultContext {
  framework: string;
  /** Says what a build error is called for this toolchain, e.g. `compile error`. */
  buildErrorLabel: string;
  toolVersion?: string;
  timeoutMs: number;
  /** A failure the toolchain reported without a test result (pytest found no tests, ...). */
  extraError?: string;
}

/**
 * Decides the run status from the sandbox outcome and the parsed tests, and writes the normalized
 * console log: one line per test, the errors, then a summary.
 */
export function toRunResult(parsed: ParsedTests, sb: SandboxResult, ctx: ResultContext): RunResult {
  let status: RunResult['status'];
  let error: string | undefined;
  if (sb.timedOut) {
    status = 'timed_out';
    error = `timed out after ${ctx.timeoutMs} ms; the run and every process it started were killed`;
  } else if (sb.cancelled) {
    status = 'cancelled';
    error = 'cancelled; the run and every process it started were killed';
  } else if (parsed.buildError) {
    status = 'error';
    error = `${ctx.buildErrorLabel}: ${parsed.buildError}`;
  } else if (ctx.extraError) {
    status = 'error';
    error = ctx.extraError;
  } else if (parsed.failed > 0) {
    status = 'failed';
  } else if (sb.exitCode === 0) {
    status = 'passed';
  } else {
    status = 'error';
    error = `${ctx.framework} exited with ${sb.exitCode === null ? `signal ${sb.signal ?? 'unknown'}` : `code ${sb.exitCode}`} without a failing test: ${lastLines(sb.stderr || sb.stdout, 15)}`;
  }

  const console_logs = parsed.tests.map(logLine);
  if (error) console_logs.push(`ERROR ${error}`);
  if (sb.truncated) console_logs.push('NOTE output was truncated; see the end of stdout/stderr');
  console_logs.push(
    `${ctx.framework}: ${parsed.passed} passed, ${parsed.failed} failed, ${parsed.skipped} skipped, ${parsed.total} total in ${(sb.durationMs / 1000).toFixed(2)} s (${status})`,
  );
  return {
    status,
    passed: parsed.passed,
    failed: parsed.failed,
    skipped: parsed.skipped,
    total: parsed.total,
    tests: parsed.tests,
    console_logs,
    stdout: sb.stdout,
    stderr: sb.stderr,
    duration_ms: sb.durationMs,
    exit_code: sb.exitCode,
    ...(error ? { error } : {}),
    ...(ctx.toolVersion ? { tool_version: ctx.toolVersion } : {}),
  };
}

function logLine(t: TestOutcome): string {
  const tag = t.status === 'passed' ? 'PASS' : t.status === 'failed' ? 'FAIL' : 'SKIP';
  const first = t.failure_message?.split('\n').find((l) => l.trim()) ?? '';
  return `${tag} ${t.name} (${t.duration_ms} ms)${first ? `: ${first.trim()}` : ''}`;
}

function lastLines(text: string, n: number): string {
  return text.trim().split('\n').slice(-n).join('\n');
}
