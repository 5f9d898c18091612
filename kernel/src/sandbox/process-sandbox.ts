import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Sandbox, SandboxRequest, SandboxResult } from '../plugin-api/sandbox.js';
import { buildSandboxEnv } from './env.js';
import { killProcessGroup } from './kill.js';
import { CappedOutput } from './output-cap.js';
import type { RunRegistry } from './run-registry.js';

const DEFAULT_MAX_OUTPUT = 1024 * 1024;

/**
 * Runs untrusted test code as a subprocess: arguments as an array and never a shell, its own
 * process group (so the timeout, a cancel and the end of the run kill every descendant, not just
 * the direct child), an allowlisted environment with a fresh per-run TMPDIR, and capped output.
 */
export class ProcessSandbox implements Sandbox {
  constructor(
    private readonly serverEnv: NodeJS.ProcessEnv = process.env,
    /** Records running groups on disk so a restart after a crash can kill what was left. */
    private readonly registry?: RunRegistry,
  ) {}

  async run(req: SandboxRequest): Promise<SandboxResult> {
    if (!Array.isArray(req.args)) throw new TypeError('sandbox arguments must be an array');
    const started = performance.now();
    const tmpDir = await mkdtemp(path.join(os.tmpdir(), 'tk-run-'));
    const stdout = new CappedOutput(req.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
    const stderr = new CappedOutput(req.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
    let timedOut = false;
    let cancelled = false;
    try {
      if (req.signal?.aborted) return finish(null, null, '', true);
      // Loaded on the first run, not at boot: execa and its dependencies are ~100 modules.
      const { execa } = await import('execa');
      const child = execa(req.command, req.args, {
        cwd: req.cwd,
        env: buildSandboxEnv(this.serverEnv, tmpDir, req.env),
        extendEnv: false,
        shell: false,
        // A new process group whose id is the child's pid: kill(-pid) reaches every descendant.
        detached: true,
        cleanup: false,
        stdin: 'ignore',
        buffer: false,
        reject: false,
        stripFinalNewline: false,
      });
      const pid = child.pid;
      if (pid !== undefined) this.registry?.add(pid);
      child.stdout?.on('data', (c: Buffer) => stdout.push(c));
      child.stderr?.on('data', (c: Buffer) => stderr.push(c));
      const killGroup = () => {
        if (pid !== undefined) killProcessGroup(pid);
      };
      // Leftovers (a backgrounded grandchild) die with the run; they would also hold the pipes open.
      child.once('exit', killGroup);
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
      }, req.timeoutMs);
      const onAbort = () => {
        cancelled = true;
        killGroup();
      };
      req.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await child;
        const spawnError = pid === undefined ? `could not start ${req.command}: ${result.originalMessage ?? result.message}` : '';
        return finish(result.exitCode ?? null, result.signal ?? null, spawnError, cancelled);
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
        killGroup();
        if (pid !== undefined) this.registry?.remove(pid);
      }
    } finally {
      await rm(tmpDir, { recursive: true, force: true }).catch(() => undefined);
    }

    function finish(exitCode: number | null, signal: string | null, spawnError: string, wasCancelled: boolean): SandboxResult {
      if (spawnError) stderr.push(spawnError);
      return {
        exitCode,
        signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        cancelled: wasCancelled && !timedOut,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: Math.round(performance.now() - started),
      };
    }
  }
}

