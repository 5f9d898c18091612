import { createExtensionPoint } from './extension-points.js';

/**
 * Owner: scripts. Runners execute a project's framework directory (or some files of it) with a
 * real toolchain inside the kernel's sandbox and return normalized results.
 * Contribution id: the runner id (e.g. `cargo`, `go`, `pytest`, `browser`).
 */
export interface RunnerAvailability {
  available: boolean;
  /** e.g. `cargo 1.95.0`. */
  version?: string;
  /** Why it is not available and how to fix it. */
  reason?: string;
}

export interface TestOutcome {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  duration_ms: number;
  failure_message?: string;
}

export interface RunResult {
  /** `error` = the suite could not run (compile/build error, missing toolchain). */
  status: 'passed' | 'failed' | 'error' | 'timed_out' | 'cancelled';
  passed: number;
  failed: number;
  skipped: number;
  total: number;
  tests: TestOutcome[];
  /** Normalized, human-readable lines (one per test result plus summaries and errors). */
  console_logs: string[];
  stdout: string;
  stderr: string;
  duration_ms: number;
  exit_code: number | null;
  /** Set when status is `error`, e.g. `compile error: ...`. */
  error?: string;
  tool_version?: string;
}

export interface RunRequest {
  framework: string;
  projectId: number;
  /** The framework directory (a runnable project). */
  frameworkDir: string;
  /** Test files relative to frameworkDir; absent runs the whole framework. */
  files?: string[];
  baseUrl?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Per-project cache directory (cargo target dir, Go build cache) kept between runs. */
  cacheDir: string;
}

export interface ScriptRunner {
  /** Frameworks this runner executes, e.g. ['rust_cargo']. */
  frameworks: string[];
  availability(framework: string): Promise<RunnerAvailability>;
  run(request: RunRequest): Promise<RunResult>;
}

export const ScriptRunners = createExtensionPoint<ScriptRunner>('scripts.runners');
