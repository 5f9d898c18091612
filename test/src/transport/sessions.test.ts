import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { HttpFrontend, Kernel } from '@testkeeper/kernel/host';
import { pino } from 'pino';
import { INITIALIZE, listChangedCount, MCP_HEADERS, openEventStream, openRawSession, sleep } from './cli-process.js';

/** In-process: what a session holds on to, and the list_changed fan-out to every session. */
describe('HTTP sessions release everything and share one registry listener (in-process)', function () {
  let dataDir: string;
  let kernel: Kernel;
  let http: HttpFrontend;
  let url: string;

  before(async function () {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tk-sessions-'));
    kernel = await Kernel.boot({
      env: {},
      logger: pino({ level: 'silent' }),
      overrides: { dataDir, log: { level: 'silent' }, http: { auth: 'none', sessionIdleSeconds: 1, maxSessions: 500 } },
    });
    http = new HttpFrontend(kernel, { port: 0 });
    url = (await http.listen()).url;
  });
  after(async function () {
    await http?.close();
    await kernel?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends exactly one list_changed to each connected session and adds no listener per session', async function () {
    const baseline = kernel.registry.listenerCount('changed');
    const streams = await Promise.all([1, 2, 3].map(async () => openEventStream(`${url}/mcp`, await openRawSession(`${url}/mcp`))));
    try {
      expect(kernel.registry.listenerCount('changed')).to.equal(baseline);
      kernel.reload({ tools: { deny: ['list_projects'] } });
      const until = Date.now() + 5000;
      while (streams.some((s) => listChangedCount(s.messages) === 0) && Date.now() < until) await sleep(25);
      await sleep(200);
      expect(streams.map((s) => listChangedCount(s.messages))).to.deep.equal([1, 1, 1]);
    } finally {
      kernel.reload({ tools: { deny: [] } });
      for (const s of streams) s.close();
    }
  });

  it('expires 200 idle sessions: none left, and the registry listener count is unchanged', async function () {
    const baseline = kernel.registry.listenerCount('changed');
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const res = await fetch(`${url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
          await res.text();
          expect(res.status).to.equal(200);
        }),
      );
    }
    expect(http.sessionCount).to.be.greaterThan(0);
    await sleep(1600); // idle 1 s, swept every 250 ms
    expect(http.sessionCount).to.equal(0);
    expect(kernel.registry.listenerCount('changed')).to.equal(baseline);
  });
});
