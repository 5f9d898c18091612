/**
 * run_native_test wall time against running the same `cargo test` directly, warm, in the same run
 * and on the same framework directory and target dir: the difference is the server's overhead
 * (script write, sandbox, parsing, execution record). Target: ratio ≤ 1.10.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, nowMs, round } from './lib/stats.mjs';

const ROUNDS = 15;
const BASE_URL = 'http://127.0.0.1:9/bench';

function cargoAvailable() {
  return new Promise((resolve) => execFile('cargo', ['--version'], (err) => resolve(!err)));
}

/** The same command the cargo runner runs, straight from this process. */
function cargoDirect(cwd, target, env) {
  return new Promise((resolve) => {
    const t0 = nowMs();
    execFile('cargo', ['test', '--no-fail-fast', `--test=${target}`], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (err) => resolve({ ms: nowMs() - t0, code: err ? err.code : 0 }));
  });
}

export default async function run({ root, log }) {
  if (!(await cargoAvailable())) return [{ name: 'run_native_test vs cargo test', value: NaN, unit: 'ratio', note: 'cargo is not installed; skipped' }];
  const { startTestHost } = await import(pathToFileURL(path.join(root, 'kernel', 'dist', 'testing', 'index.js')).href);
  const host = await startTestHost();
  try {
    const project = await host.ok('create_project', { name: 'Native bench', force_create: true });
    const projectId = project.project_id ?? project.id;
    const code = readFileSync(path.join(root, 'test', 'fixtures', 'native', 'scripts', 'checkout.rs'), 'utf8');
    const script = await host.ok('create_script', { project_id: projectId, name: 'Bench checkout', framework: 'rust_cargo', code });

    log('native: warm-up (first compile)');
    const first = await host.ok('run_native_test', { script_id: script.id, base_url: BASE_URL });
    const frameworkDir = path.join(host.dataDir, 'frameworks', String(projectId), 'rust_cargo');
    const target = path.basename(first.file, '.rs');
    // The environment the sandbox gives the runner (so e.g. RUST_BACKTRACE in this shell does not
    // slow down one side only); TMPDIR stays the system one.
    const { buildSandboxEnv } = await import(pathToFileURL(path.join(root, 'kernel', 'dist', 'sandbox', 'env.js')).href);
    const env = buildSandboxEnv(process.env, os.tmpdir(), {
      CARGO_TARGET_DIR: path.join(host.dataDir, 'run-cache', String(projectId), 'cargo-target'),
      CARGO_TERM_COLOR: 'never',
      BASE_URL,
    });
    await cargoDirect(frameworkDir, target, env);

    const tool = [];
    const direct = [];
    for (let i = 0; i < ROUNDS; i++) {
      log(`native: round ${i + 1}/${ROUNDS}`);
      // Alternate the order so neither side always runs on a cache the other just warmed.
      const viaTool = async () => {
        const t0 = nowMs();
        const res = await host.ok('run_native_test', { script_id: script.id, base_url: BASE_URL });
        tool.push(nowMs() - t0);
        if (res.total !== first.total) throw new Error(`run_native_test counted ${res.total} tests, first run ${first.total}`);
      };
      const viaCargo = async () => direct.push((await cargoDirect(frameworkDir, target, env)).ms);
      if (i % 2 === 0) {
        await viaTool();
        await viaCargo();
      } else {
        await viaCargo();
        await viaTool();
      }
    }
    const t = median(tool);
    const d = median(direct);
    // On a busy machine the median carries scheduler noise; the fastest runs show the fixed overhead.
    const tMin = Math.min(...tool);
    const dMin = Math.min(...direct);
    return [
      {
        name: 'run_native_test / direct cargo test (warm, one test file)',
        value: round(t / d, 3),
        unit: 'ratio',
        target: '≤ 1.10',
        note: `median ${round(t, 1)} ms vs ${round(d, 1)} ms over ${ROUNDS} rounds; fastest ${round(tMin, 1)} vs ${round(dMin, 1)} ms (ratio ${round(tMin / dMin, 3)})`,
      },
      { name: 'run_native_test wall time (warm)', value: round(t, 1), unit: 'ms', baseline: round(d, 1), ratio: round(t / d, 3) },
      { name: 'run_native_test overhead over direct cargo (median)', value: round(t - d, 1), unit: 'ms' },
    ];
  } finally {
    await host.close();
  }
}
