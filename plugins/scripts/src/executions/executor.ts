import { inject, injectable, Tokens, type KernelConfig, type Logger, type RunResult } from '@testkeeper/kernel';
import { frameworkDir } from '../frameworks/layout.js';
import { executionDir, hashTree, projectCacheDir, sha256 } from './artifacts.js';
import type { ExecutionResultRow, ExecutionRow, ExecutionState } from './entities.js';
import { ExecutionStore, type NewResult } from './execution-store.js';
import { buildReceipt } from './receipt.js';
import { RunLogFiles } from './run-log-files.js';
import { ExecutionsRuntime } from './runtime.js';

export interface RunPlan {
  /** One entry per framework to run; `files` limits it to some test files. */
  items: Array<{ framework: string; files?: string[] }>;
  script_version: string | null;
  test_case_version: string | null;
}

export interface ExecutionOutcome {
  status: ExecutionState;
  results: ExecutionResultRow[];
  runs: RunResult[];
  duration_ms: number;
  error: string | null;
}

/** Progress reporting of the caller (MCP progress notifications, job progress). */
export type Progress = (done: number, total: number, message: string) => Promise<void>;

const SEVERITY: ExecutionState[] = ['cancelled', 'timed_out', 'error', 'failed', 'passed'];

/**
 * Runs a claimed execution through the contributed runners and stores its results, logs,
 * artifacts and receipt in one write. Verified runs are added to project memory.
 */
@injectable()
export class ExecutionExecutor {
  constructor(
    private readonly store: ExecutionStore,
    private readonly runtime: ExecutionsRuntime,
    @inject(Tokens.Config) private readonly config: KernelConfig,
    @inject(Tokens.Logger) private readonly logger: Logger,
  ) {}

  async run(row: ExecutionRow, plan: RunPlan, signal?: AbortSignal, progress?: Progress): Promise<ExecutionOutcome> {
    const started = performance.now();
    const dir = executionDir(this.config.dataDir, row.project_id, row.execution_id);
    const logFiles = new RunLogFiles(
      dir,
      plan.items.map((item, i) => `${i + 1}-${item.framework}`),
    );
    try {
      return await this.runItems(row, plan, logFiles, started, signal, progress);
    } finally {
      await logFiles.discardUnwritten();
    }
  }

  private async runItems(row: ExecutionRow, plan: RunPlan, logFiles: RunLogFiles, started: number, signal?: AbortSignal, progress?: Progress): Promise<ExecutionOutcome> {
    const results: NewResult[] = [];
    const runs: RunResult[] = [];
    const logs: Array<{ at: string; stream: string; framework: string; message: string }> = [];
    const artifacts: string[] = [];
    const writes: Array<Promise<void>> = [];
    const revisions: Record<string, string | null> = {};
    const runners: Array<{ runner: string; framework: string; tool_version: string | null }> = [];

    for (const [index, item] of plan.items.entries()) {
      await progress?.(index, plan.items.length, `running ${item.framework}`).catch(() => undefined);
      const fwDir = frameworkDir(this.config.dataDir, row.project_id, item.framework);
      // The sources' revision, read while the tests run (tests do not change their sources).
      const revision = hashTree(fwDir).catch(() => null);
      const found = this.runtime.runnerFor(item.framework);
      const rr = await this.runOne(found, item, row, fwDir, signal);
      revisions[item.framework] = await revision;
      runs.push(rr);
      runners.push({ runner: found?.id ?? 'none', framework: item.framework, tool_version: rr.tool_version ?? null });
      artifacts.push(...logFiles.files(index));
      const written = logFiles.write(index, rr.stdout, rr.stderr);
      // Awaited before the record commits; this only keeps an early failure from being unhandled.
      written.catch(() => undefined);
      writes.push(written);
      const at = new Date().toISOString();
      for (const message of rr.console_logs) logs.push({ at, stream: 'console', framework: item.framework, message });
      results.push({
        script_id: row.script_id,
        framework: item.framework,
        runner: found?.id ?? 'none',
        tool_version: rr.tool_version ?? null,
        status: rr.status,
        passed: rr.passed,
        failed: rr.failed,
        skipped: rr.skipped,
        total: rr.total,
        duration_ms: rr.duration_ms,
        exit_code: rr.exit_code,
        error: rr.error ?? null,
        tests: JSON.stringify(rr.tests),
      });
    }

    await progress?.(plan.items.length, plan.items.length, 'recording results').catch(() => undefined);
    const status = SEVERITY.find((s) => runs.some((r) => r.status === s)) ?? 'error';
    const sum = (k: 'passed' | 'failed' | 'skipped' | 'total') => runs.reduce((n, r) => n + r[k], 0);
    const error = runs.map((r) => r.error).filter(Boolean).join('\n') || null;
    const duration_ms = Math.round(performance.now() - started);
    const receipt = buildReceipt(
      {
        project_id: row.project_id,
        test_case_id: row.test_case_id,
        script_id: row.script_id,
        script_version: plan.script_version,
        frameworks: plan.items.map((i) => i.framework),
        runners,
        base_url: row.base_url,
      },
      { script_version: plan.script_version, test_case_version: plan.test_case_version, framework_sha256: revisions },
      {
        status,
        exit_codes: runs.map((r) => r.exit_code),
        passed: sum('passed'),
        failed: sum('failed'),
        skipped: sum('skipped'),
        total: sum('total'),
        logs_sha256: sha256(...runs.flatMap((r) => [r.stdout, r.stderr, r.console_logs.join('\n')])),
        finished_at: new Date().toISOString(),
      },
    );
    // The log files are written while the record is prepared; the record commits only once they are on disk.
    const artifactsWritten = Promise.all(writes).then(() => undefined);
    artifactsWritten.catch(() => undefined); // a failure is awaited (and rolls back) inside complete()
    const saved = await this.store.complete(row, results, artifactsWritten, {
      status,
      passed: sum('passed'),
      failed: sum('failed'),
      skipped: sum('skipped'),
      total: sum('total'),
      duration_ms,
      error,
      logs,
      artifacts,
      receipt,
    });
    await this.remember(row, status, runs, receipt.reference);
    return { status, results: saved, runs, duration_ms, error };
  }

  private async runOne(
    found: ReturnType<ExecutionsRuntime['runnerFor']>,
    item: RunPlan['items'][number],
    row: ExecutionRow,
    fwDir: string,
    signal?: AbortSignal,
  ): Promise<RunResult> {
    if (!found) return failedToStart(`no runner for the ${item.framework} framework is installed on this server`);
    const availability = await found.runner.availability(item.framework);
    if (!availability.available) return failedToStart(`the ${item.framework} toolchain is not available: ${availability.reason ?? 'unknown reason'}`);
    try {
      return await found.runner.run({
        framework: item.framework,
        projectId: row.project_id,
        frameworkDir: fwDir,
        ...(item.files ? { files: item.files } : {}),
        ...(row.base_url ? { baseUrl: row.base_url } : {}),
        timeoutMs: this.runtime.timeoutMs,
        ...(signal ? { signal } : {}),
        cacheDir: projectCacheDir(this.config.dataDir, row.project_id),
      });
    } catch (err) {
      this.logger.warn({ err, execution: row.execution_id }, 'runner failed');
      return failedToStart(`${found.id} runner failed: ${(err as Error).message}`);
    }
  }

  /** A verified run (the suite ran and reported results) becomes a memory entry with provenance. */
  private async remember(row: ExecutionRow, status: ExecutionState, runs: RunResult[], receiptRef: string): Promise<void> {
    const memory = this.runtime.memory;
    if (!memory || (status !== 'passed' && status !== 'failed')) return;
    const counts = runs.map((r) => `${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped${r.tool_version ? ` (${r.tool_version})` : ''}`).join('; ');
    const what = row.script_id ? `script ${row.script_id}` : 'the project framework';
    const failedNames = runs.flatMap((r) => r.tests.filter((t) => t.status === 'failed').map((t) => t.name)).slice(0, 5);
    const text = `Verified run of ${what} (${JSON.parse(row.frameworks).join(', ')})${row.base_url ? ` against ${row.base_url}` : ''}: ${status}; ${counts}.${failedNames.length ? ` Failing: ${failedNames.join(', ')}.` : ''}`;
    try {
      await memory.record({
        project_id: row.project_id,
        owner_id: row.owner_id,
        kind: 'verified_run',
        text,
        test_case_id: row.test_case_id,
        source: row.kind === 'native_test' ? 'run_native_test' : 'trigger_framework_run',
        source_ref: `${row.execution_id} ${receiptRef}`,
      });
    } catch (err) {
      this.logger.warn({ err, execution: row.execution_id }, 'could not record the verified run in project memory');
    }
  }
}

function failedToStart(error: string): RunResult {
  return { status: 'error', passed: 0, failed: 0, skipped: 0, total: 0, tests: [], console_logs: [`ERROR ${error}`], stdout: '', stderr: '', duration_ms: 0, exit_code: null, error };
}
