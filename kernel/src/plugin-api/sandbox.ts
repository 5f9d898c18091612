/**
 * Kernel service (Tokens.Sandbox): runs untrusted test code. A per-run working directory is the
 * caller's; the sandbox enforces the timeout (killing the whole process group), builds the
 * environment from an allowlist (no server secrets), caps output with a visible marker and never
 * uses a shell.
 */
export interface SandboxRequest {
  command: string;
  args: string[];
  cwd: string;
  /** Extra variables on top of the allowlisted base (PATH, HOME, LANG, ...). */
  env?: Record<string, string>;
  timeoutMs: number;
  /** Per stream; default 1 MiB. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
}

export interface SandboxResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
  truncated: boolean;
  durationMs: number;
}

export interface Sandbox {
  run(request: SandboxRequest): Promise<SandboxResult>;
}
