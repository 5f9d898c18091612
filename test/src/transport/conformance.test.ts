import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT, startHttpServer, tempHome, type ServerProcess, type TempHome } from './cli-process.js';

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'server-sse-multiple-streams'];

interface Summary {
  results: Array<{ scenario: string; checks: Array<{ id: string; status: string; error?: string }> }>;
  problems: string[];
}

function runSuite(url: string): Promise<{ code: number | null; summary: Summary; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts/conformance.mjs'), '--url', url, '--scenario', SCENARIOS.join(','), '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({ code, summary: JSON.parse(stdout.trim().split('\n').pop()!), stderr });
      } catch {
        reject(new Error(`conformance runner printed no summary (exit ${code}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

describe('MCP conformance suite (server mode) against serve --http', function () {
  this.timeout(120_000);
  let home: TempHome;
  let server: ServerProcess;

  before(async function () {
    home = tempHome({ http: { auth: 'none' }, log: { level: 'warn' } });
    server = await startHttpServer(home);
  });
  after(async function () {
    await server?.stop();
    home?.cleanup();
  });

  it(`passes ${SCENARIOS.join(', ')}`, async function () {
    const { code, summary, stderr } = await runSuite(server.mcpUrl);
    expect(summary.problems, stderr).to.deep.equal([]);
    expect(summary.results.map((r) => r.scenario)).to.deep.equal(SCENARIOS);
    for (const r of summary.results) {
      expect(r.checks.length, `${r.scenario} ran no checks`).to.be.greaterThan(0);
      for (const c of r.checks) expect(c.status, `${r.scenario}/${c.id}: ${c.error ?? ''}`).to.equal('SUCCESS');
    }
    expect(code).to.equal(0);
  });
});
