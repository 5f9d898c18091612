import { spawn, type ChildProcess } from 'node:child_process';
import type { Sandbox, SandboxRequest, SandboxResult } from '../plugin-api/sandbox.js';
import { buildSandboxEnv } from './env.js';
import { killProcessGroup } from './kill.js';
import { CappedOutput } from './output-cap.js';
import type { RunRegistry } from './run-registry.js';
import { removeRunTmpDir, RunTmpDirs } from './run-tmpdirs.js';

const DEFAULT_MAX_OUTPUT = 1024 * 1024;

/**
 * Runs untrusted test code as a subprocess: arguments as an array and never a shell, its own
 * process group (so the timeout, a cancel and the end of the run kill every descendant, not just
 * the direct child), an allowlisted environment with a fresh per-run TMPDIR, and capped output.
 * Node's own `spawn` is used: a wrapper such as execa costs about a millisecond per run here.
 */
export class ProcessSandbox implements Sandbox {
  private readonly tmpDirs = new RunTmpDirs();

  constructor(
    private readonly serverEnv: NodeJS.ProcessEnv = process.env,
    /** Records running groups on disk so a restart after a crash can kill what was left. */
    private readonly registry?: RunRegistry,
  ) {}

  async run(req: SandboxRequest): Promise<SandboxResult> {
    if (!Array.isArray(req.args)) throw new TypeError('sandbox arguments must be an array');
    const started = performance.now();
    const tmpDir = this.tmpDirs.take();
    const stdout = new CappedOutput(req.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
    const stderr = new CappedOutput(req.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
    let timedOut = false;
    let cancelled = false;
    try {
      if (req.signal?.aborted) return finish(null, null, '', true);
      let child: ChildProcess;
      try {
        child = spawn(req.command, req.args, {
          cwd: req.cwd,
          env: buildSandboxEnv(this.serverEnv, tmpDir, req.env),
          shell: false,
          // A new process group whose id is the child's pid: kill(-pid) reaches every descendant.
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (err) {
        // Arguments node refuses outright (a NUL byte, ...): reported like a command that cannot start.
        return finish(null, null, `could not start ${req.command}: ${(err as Error).message}`, false);
      }
      const pid = child.pid;
      if (pid !== undefined) this.registry?.add(pid);
      this.tmpDirs.prepareNext();
      child.stdout?.on('data', (c: Buffer) => stdout.push(c));
      child.stderr?.on('data', (c: Buffer) => stderr.push(c));
      // A failing pipe must not crash the server (an unhandled 'error' event throws); `close` still comes.
      child.stdout?.on('error', () => undefined);
      child.stderr?.on('error', () => undefined);
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
        // `close` comes after `exit` and after both pipes are drained; a spawn failure (command not
        // found, bad cwd) emits `error` instead and may never close.
        const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
          child.once('close', (code, signal) => resolve({ code, signal }));
          child.on('error', (error) => {
            if (pid === undefined) resolve({ code: null, signal: null, error });
          });
        });
        const spawnError = ended.error ? `could not start ${req.command}: ${ended.error.message}` : '';
        return finish(ended.code, ended.signal, spawnError, cancelled);
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
        killGroup();
        if (pid !== undefined) this.registry?.remove(pid);
      }
    } finally {
      await removeRunTmpDir(tmpDir);
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
