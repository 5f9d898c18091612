import os from 'node:os';
import type { RunnerAvailability, Sandbox } from '@testkeeper/kernel';

const TTL_MS = 60_000;

/**
 * Asks a toolchain for its version through the sandbox (same environment as a real run) and keeps
 * the answer for a minute, so capability listings and every run do not spawn it again.
 */
export class ToolchainProbe {
  private cached?: { at: number; value: Promise<RunnerAvailability> };

  constructor(
    private readonly sandbox: Sandbox,
    private readonly command: string,
    private readonly args: string[],
    private readonly install: string,
    private readonly pick: (out: string) => string | undefined = (out) => out.trim().split('\n')[0],
  ) {}

  availability(): Promise<RunnerAvailability> {
    if (this.cached && Date.now() - this.cached.at < TTL_MS) return this.cached.value;
    const value = this.probe();
    this.cached = { at: Date.now(), value };
    return value;
  }

  private async probe(): Promise<RunnerAvailability> {
    const res = await this.sandbox.run({ command: this.command, args: this.args, cwd: os.tmpdir(), timeoutMs: 20_000 });
    const version = res.exitCode === 0 ? this.pick(res.stdout || res.stderr) : undefined;
    if (version) return { available: true, version };
    const why = res.exitCode === null ? `${this.command} was not found on PATH` : `\`${this.command} ${this.args.join(' ')}\` failed: ${(res.stderr || res.stdout).trim().split('\n')[0] ?? ''}`;
    return { available: false, reason: `${why}. ${this.install}` };
  }
}
