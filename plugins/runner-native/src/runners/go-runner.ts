import { readFileSync } from 'node:fs';
import path from 'node:path';
import { invalidArgument, type RunRequest, type RunResult, type Sandbox, type ScriptRunner } from '@testkeeper/kernel';
import { checkedTestFiles } from '../files.js';
import { parseGoTestJson } from '../parsers/go-json.js';
import { toRunResult } from '../run-result.js';
import { ToolchainProbe } from '../toolchain.js';

const TEST_FUNC = /^func\s+(Test\w*)\s*\(\s*\w+\s+\*testing\.T\s*\)/gm;

/** `go test -json` for `go_test` frameworks; the build cache lives in the project's cache. */
export class GoRunner implements ScriptRunner {
  readonly frameworks = ['go_test'];
  private readonly probe: ToolchainProbe;

  constructor(private readonly sandbox: Sandbox) {
    this.probe = new ToolchainProbe(sandbox, 'go', ['version'], 'Install Go (https://go.dev/dl, or the golang-go package) so `go` is on the server\'s PATH.');
  }

  availability() {
    return this.probe.availability();
  }

  async run(req: RunRequest): Promise<RunResult> {
    const availability = await this.probe.availability();
    // -count=1: results must come from this run (BASE_URL differs between runs), not Go's test cache.
    const args = ['test', '-json', '-count=1', ...selection(req)];
    const sb = await this.sandbox.run({
      command: 'go',
      args,
      cwd: req.frameworkDir,
      env: {
        GOCACHE: path.join(req.cacheDir, 'go-build'),
        GOTOOLCHAIN: 'local',
        ...(req.baseUrl ? { BASE_URL: req.baseUrl } : {}),
      },
      timeoutMs: req.timeoutMs,
      signal: req.signal,
    });
    return toRunResult(parseGoTestJson(sb.stdout, sb.stderr), sb, {
      framework: 'go_test',
      buildErrorLabel: 'build failed',
      toolVersion: availability.version,
      timeoutMs: req.timeoutMs,
    });
  }
}

/**
 * Go runs packages, not files: a single file becomes its package plus `-run` with the file's own
 * test functions, so the other tests of that package do not run.
 */
function selection(req: RunRequest): string[] {
  if (!req.files?.length) return ['./...'];
  const packages = new Set<string>();
  const names = new Set<string>();
  for (const f of checkedTestFiles(req.frameworkDir, req.files)) {
    if (!f.endsWith('_test.go')) throw invalidArgument(`${f} is not a Go test file`, 'Go test files end in _test.go.');
    const dir = path.posix.dirname(f);
    packages.add(dir === '.' ? '.' : `./${dir}`);
    for (const m of readFileSync(path.join(req.frameworkDir, f), 'utf8').matchAll(TEST_FUNC)) names.add(m[1]!);
  }
  if (names.size === 0) throw invalidArgument('The test file declares no func TestXxx(t *testing.T)', 'Add at least one test function to the script.');
  return [`-run=^(${[...names].join('|')})$`, ...packages];
}
