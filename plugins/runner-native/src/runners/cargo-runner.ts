import path from 'node:path';
import { invalidArgument, type RunRequest, type RunResult, type Sandbox, type ScriptRunner } from '@testkeeper/kernel';
import { checkedTestFiles } from '../files.js';
import { parseCargoOutput } from '../parsers/cargo.js';
import { toRunResult } from '../run-result.js';
import { ToolchainProbe } from '../toolchain.js';

/** `cargo test` for `rust_cargo` frameworks; the target dir lives in the project's cache. */
export class CargoRunner implements ScriptRunner {
  readonly frameworks = ['rust_cargo'];
  private readonly probe: ToolchainProbe;

  constructor(private readonly sandbox: Sandbox) {
    this.probe = new ToolchainProbe(sandbox, 'cargo', ['--version'], 'Install Rust with rustup (https://rustup.rs) so `cargo` is on the server\'s PATH.');
  }

  availability() {
    return this.probe.availability();
  }

  async run(req: RunRequest): Promise<RunResult> {
    const availability = await this.probe.availability();
    // --no-fail-fast: a failing binary must not hide the results of the next ones.
    const args = ['test', '--no-fail-fast', ...targetArgs(req)];
    const sb = await this.sandbox.run({
      command: 'cargo',
      args,
      cwd: req.frameworkDir,
      env: {
        CARGO_TARGET_DIR: path.join(req.cacheDir, 'cargo-target'),
        CARGO_TERM_COLOR: 'never',
        ...(req.baseUrl ? { BASE_URL: req.baseUrl } : {}),
      },
      timeoutMs: req.timeoutMs,
      signal: req.signal,
    });
    return toRunResult(parseCargoOutput(sb.stdout, sb.stderr), sb, {
      framework: 'rust_cargo',
      buildErrorLabel: 'compile error',
      toolVersion: availability.version,
      timeoutMs: req.timeoutMs,
    });
  }
}

/** `tests/x.rs` → `--test x`; a file under `src/` → `--lib`; nothing → every target. */
function targetArgs(req: RunRequest): string[] {
  if (!req.files?.length) return [];
  const args = new Set<string>();
  for (const f of checkedTestFiles(req.frameworkDir, req.files)) {
    const integration = /^tests\/([^/]+)\.rs$/.exec(f) ?? /^tests\/([^/]+)\/main\.rs$/.exec(f);
    if (integration) args.add(`--test=${integration[1]}`);
    else if (f.startsWith('src/')) args.add('--lib');
    else throw invalidArgument(`${f} is not a cargo test target`, 'Rust tests live in tests/<name>.rs (integration tests) or under src/ (unit tests).');
  }
  return [...args];
}
