import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { RunRequest, RunResult, Sandbox, ScriptRunner } from '@testkeeper/kernel';
import { checkedTestFiles } from '../files.js';
import { parseJUnitXml } from '../parsers/junit.js';
import type { ParsedTests } from '../parsers/parsed-tests.js';
import { toRunResult } from '../run-result.js';
import { ToolchainProbe } from '../toolchain.js';

const PYTHON = 'python3';

/** pytest for `pytest` frameworks, read through the JUnit XML report. */
export class PytestRunner implements ScriptRunner {
  readonly frameworks = ['pytest'];
  private readonly probe: ToolchainProbe;

  constructor(private readonly sandbox: Sandbox) {
    this.probe = new ToolchainProbe(sandbox, PYTHON, ['-m', 'pytest', '--version'], 'Install Python 3 and pytest (`python3 -m pip install pytest`) for the server\'s user.');
  }

  availability() {
    return this.probe.availability();
  }

  async run(req: RunRequest): Promise<RunResult> {
    const availability = await this.probe.availability();
    const reportDir = path.join(req.cacheDir, 'pytest-reports');
    await mkdir(reportDir, { recursive: true });
    const report = path.join(reportDir, `${randomUUID()}.xml`);
    // `./` keeps a file name from being read as an option.
    const files = req.files?.length ? checkedTestFiles(req.frameworkDir, req.files).map((f) => `./${f}`) : [];
    try {
      const sb = await this.sandbox.run({
        command: PYTHON,
        args: ['-m', 'pytest', '-p', 'no:cacheprovider', '--color=no', '-q', `--junitxml=${report}`, ...files],
        cwd: req.frameworkDir,
        env: { PYTHONDONTWRITEBYTECODE: '1', ...(req.baseUrl ? { BASE_URL: req.baseUrl } : {}) },
        timeoutMs: req.timeoutMs,
        signal: req.signal,
      });
      const xml = await readFile(report, 'utf8').catch(() => null);
      const parsed: ParsedTests = xml ? parseJUnitXml(xml) : { tests: [], passed: 0, failed: 0, skipped: 0, total: 0 };
      return toRunResult(parsed, sb, {
        framework: 'pytest',
        buildErrorLabel: 'collection error',
        toolVersion: availability.version,
        timeoutMs: req.timeoutMs,
        extraError: exitCodeError(sb.exitCode, xml !== null),
      });
    } finally {
      await rm(report, { force: true });
    }
  }
}

/** pytest's exit codes that mean "the suite did not run properly" rather than "tests failed". */
function exitCodeError(code: number | null, hasReport: boolean): string | undefined {
  if (code === 2) return 'pytest was interrupted (usually a collection error: an import or syntax error in a test file)';
  if (code === 3) return 'pytest hit an internal error';
  if (code === 4) return 'pytest rejected its command line';
  if (code === 5) return 'pytest collected no tests';
  if (code !== null && code !== 0 && code !== 1) return `pytest exited with code ${code}`;
  if (code !== null && !hasReport) return 'pytest wrote no JUnit report';
  return undefined;
}
