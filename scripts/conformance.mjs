#!/usr/bin/env node
// Runs the MCP conformance suite (@modelcontextprotocol/conformance, server mode) against
// Testkeeper's Streamable HTTP endpoint and fails when any check fails.
//
//   node scripts/conformance.mjs                  start a throwaway server (http.auth none, loopback)
//   node scripts/conformance.mjs --url URL/mcp    test a running server
//   --scenario a,b   scenarios to run (default: the ones Testkeeper supports, below)
//   --json           print one JSON summary line instead of text
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Scenarios covering what Testkeeper implements (tools, ping, sessions, rebinding protection). */
export const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'server-sse-multiple-streams'];

function conformanceBin() {
  const require = createRequire(path.join(ROOT, 'package.json'));
  const pkgFile = require.resolve('@modelcontextprotocol/conformance/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  return path.join(path.dirname(pkgFile), pkg.bin.conformance);
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** Runs one scenario; returns its checks (from the suite's checks.json). */
export async function runScenario(url, scenario) {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'tk-conformance-'));
  try {
    const { code, out } = await run(process.execPath, [conformanceBin(), 'server', '--url', url, '--scenario', scenario, '-o', outDir]);
    const dirs = readdirSync(outDir);
    if (dirs.length !== 1) throw new Error(`conformance ${scenario} wrote no results (exit ${code}):\n${out}`);
    const checks = JSON.parse(readFileSync(path.join(outDir, dirs[0], 'checks.json'), 'utf8'));
    return { scenario, exitCode: code, checks: checks.map((c) => ({ id: c.id, status: c.status, description: c.description, ...(c.errorMessage ? { error: c.errorMessage } : {}) })) };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Starts `serve --http --port 0` with http.auth none in a temp data dir; resolves with its /mcp URL. */
async function startServer() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tk-conformance-data-'));
  const config = path.join(dataDir, 'config.json');
  writeFileSync(config, JSON.stringify({ http: { auth: 'none' }, log: { level: 'warn' } }));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TESTKEEPER_')));
  const child = spawn(process.execPath, [path.join(ROOT, 'kernel/dist/cli.js'), 'serve', '--http', '--port', '0', '--config', config], {
    env: { ...env, TESTKEEPER_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const line = buf.split('\n').find((l) => l.startsWith('{"listening"'));
      if (line) resolve(JSON.parse(line).mcp);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, stop };
}

async function main() {
  const { values } = parseArgs({ options: { url: { type: 'string' }, scenario: { type: 'string' }, json: { type: 'boolean' } } });
  const scenarios = values.scenario ? values.scenario.split(',') : SCENARIOS;
  const server = values.url ? null : await startServer();
  const url = values.url ?? server.url;
  let results;
  try {
    results = await Promise.all(scenarios.map((s) => runScenario(url, s))); // independent sessions
  } finally {
    await server?.stop();
  }
  const failed = results.flatMap((r) => r.checks.filter((c) => c.status === 'FAILURE').map((c) => `${r.scenario}/${c.id}: ${c.error ?? c.description}`));
  const empty = results.filter((r) => r.checks.length === 0).map((r) => `${r.scenario}: no checks ran`);
  const problems = [...failed, ...empty];
  if (values.json) process.stdout.write(JSON.stringify({ url, results, problems }) + '\n');
  else {
    for (const r of results) {
      for (const c of r.checks) process.stdout.write(`${c.status.padEnd(8)} ${r.scenario}/${c.id}${c.error ? ` — ${c.error}` : ''}\n`);
    }
    process.stdout.write(problems.length ? `\n${problems.length} problem(s):\n${problems.join('\n')}\n` : `\nall ${results.length} scenarios passed\n`);
  }
  process.exitCode = problems.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    process.stderr.write(`conformance: ${e.stack ?? e}\n`);
    process.exitCode = 2;
  });
}
