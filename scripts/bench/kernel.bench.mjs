/**
 * Kernel benchmarks against a bare MCP SDK server measured in the same run: cold start, tools/list
 * size and latency, stdio and HTTP tools/call, idle memory and memory after abandoned sessions.
 * Loopback only; every loop has a fixed count.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createHttpClient, mcpToolCall, openMcpSession, rpcMessages, runLoad, sendInitialized } from './lib/http-load.mjs';
import { rssOf, runCli, startListening } from './lib/processes.mjs';
import { mean, median, nowMs, percentile, round, sleep } from './lib/stats.mjs';

const COLD_RUNS = 5;
const STDIO_CALLS = 2000;
const LIST_CALLS = 2000;
const HTTP_CALLS = 8000;
const HTTP_ROUNDS = 4;
const IN_FLIGHT = 16;
const ABANDONED_SESSIONS = 2000;
const SESSION_IDLE_SECONDS = 2;
const MB = 1024 * 1024;
/** Modules a SQLite start must not load. */
const FORBIDDEN = /\/node_modules\/(pg|pg-pool|pg-boss|playwright|playwright-core|@playwright\/[^/]+)\//;

export default async function run({ root, log }) {
  const cli = path.join(root, 'kernel', 'dist', 'cli.js');
  const bare = path.join(root, 'scripts', 'bench', 'lib', 'bare-server.mjs');
  const probe = path.join(root, 'scripts', 'bench', 'lib', 'probe.mjs');
  const work = mkdtempSync(path.join(os.tmpdir(), 'tk-bench-'));
  const rows = [];
  const cleanups = [];
  // Only what the server needs; never the caller's TESTKEEPER_* settings.
  const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? work, TESTKEEPER_LOG_LEVEL: 'warn' };
  let dirs = 0;
  const freshDir = () => path.join(work, `data-${++dirs}`);
  try {
    // ---- stdio: cold start, tools/list size, tools/call latency -------------------------------
    log('stdio: cold starts');
    const tkCold = [];
    const bareCold = [];
    let lastTk;
    const coldDirs = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const b = await stdioStart(process.execPath, [bare, 'stdio'], baseEnv, root);
      bareCold.push(b.ms);
      await b.close();
      coldDirs.push(freshDir());
      const t = await stdioStart(process.execPath, [cli, 'serve', '--stdio'], { ...baseEnv, TESTKEEPER_DATA_DIR: coldDirs[i] }, root);
      tkCold.push(t.ms);
      if (i < COLD_RUNS - 1) await t.close();
      else lastTk = t;
    }
    cleanups.push(() => lastTk.close());
    rows.push(metric('cold start to first tools/list (stdio, fresh SQLite)', median(tkCold), 'ms', '≤ 400', median(bareCold), `median of ${COLD_RUNS}; includes migrations`));
    const tkWarm = [];
    for (let i = 0; i < COLD_RUNS - 1; i++) {
      const t = await stdioStart(process.execPath, [cli, 'serve', '--stdio'], { ...baseEnv, TESTKEEPER_DATA_DIR: coldDirs[i] }, root);
      tkWarm.push(t.ms);
      await t.close();
    }
    rows.push(metric('restart to first tools/list (stdio, migrated SQLite)', median(tkWarm), 'ms', '≤ 400', median(bareCold), `median of ${tkWarm.length}; the same data dirs again`));

    const tools = lastTk.list.tools;
    const listBytes = Buffer.byteLength(JSON.stringify(lastTk.list));
    rows.push(metric('tools/list payload', listBytes, 'B', undefined, undefined, `${tools.length} tools`));
    rows.push(metric('tools/list bytes per tool', listBytes / tools.length, 'B/tool', '≤ 400'));

    log('stdio: module check on a SQLite start');
    const loaded = await modulesOfStart(process.execPath, ['--import', probe, cli, 'serve', '--stdio'], { ...baseEnv, TESTKEEPER_DATA_DIR: freshDir() }, root, path.join(work, 'probe-start'));
    const forbidden = loaded.filter((m) => FORBIDDEN.test(m));
    const probeWorks = loaded.some((m) => m.includes('/node_modules/better-sqlite3/'));
    rows.push(
      metric('pg / Playwright modules loaded on a SQLite start', probeWorks ? forbidden.length : NaN, 'modules', '≤ 0', undefined,
        probeWorks ? `${loaded.length} modules loaded${forbidden.length ? `; offending: ${[...new Set(forbidden.map((m) => FORBIDDEN.exec(m)[1]))].join(', ')}` : ''}` : 'PROBE BROKEN: better-sqlite3 not seen, result not trustworthy'),
    );

    log('stdio: tools/call latency');
    const target = await pickCallTarget((name, args) => lastTk.client.callTool({ name, arguments: args }), tools);
    const tkCall = await timeCalls(() => lastTk.client.callTool({ name: target.name, arguments: target.args }), STDIO_CALLS, isSuccess);
    const b = await stdioStart(process.execPath, [bare, 'stdio'], baseEnv, root);
    const bareCall = await timeCalls(() => b.client.callTool({ name: 'echo', arguments: { text: 'x' } }), STDIO_CALLS, (r) => !r.isError);
    await b.close();
    const callNote = `${target.name}${target.fallback ? ' (FALLBACK: get_project_summary not available)' : ''}; ${STDIO_CALLS} sequential calls`;
    rows.push(metric(`stdio tools/call p50 (${target.name})`, tkCall.p50, 'ms', '≤ 0.5', bareCall.p50, callNote + failuresNote(tkCall)));
    rows.push(metric(`stdio tools/call p99 (${target.name})`, tkCall.p99, 'ms', '≤ 3', bareCall.p99));
    await lastTk.close();
    cleanups.pop();

    // ---- in-process: cached tools/list ----------------------------------------------------------
    log('in-process: cached tools/list');
    const inproc = await cachedListTimes(root, freshDir());
    rows.push(metric('cached tools/list, in-memory client round trip', inproc.clientMean, 'ms', '≤ 0.5', inproc.bareMean, `mean of ${LIST_CALLS}; client-side schema validation included`));
    rows.push(metric('cached tools/list, registry.listing()', inproc.registryMicros, 'µs', '≤ 500', undefined, inproc.sameInstance ? 'same array instance between changes' : 'NOT the same instance: cache broken'));

    // ---- HTTP: throughput, idle memory, abandoned sessions --------------------------------------
    log('http: start server');
    const dataDir = freshDir();
    const env = { ...baseEnv, TESTKEEPER_DATA_DIR: dataDir };
    const token = JSON.parse(runCli(cli, ['token', 'create', '--user', 'bench', '--json'], env)).token;
    const configFile = path.join(work, 'bench-config.json');
    // The acme fixture plugin adds a trivial tool, so kernel overhead can be compared with the bare
    // server's trivial tool apples to apples.
    const acme = path.join(root, 'test', 'fixtures', 'plugins', 'acme');
    writeFileSync(
      configFile,
      JSON.stringify({ http: { sessionIdleSeconds: SESSION_IDLE_SECONDS, maxSessions: ABANDONED_SESSIONS * 2 }, plugins: { paths: existsSync(acme) ? [acme] : [] } }),
    );
    const probePrefix = path.join(work, 'probe-http');
    const server = await startListening(['--expose-gc', '--import', probe, cli, 'serve', '--http', '--port', '0', '--config', configFile], {
      env: { ...env, TK_BENCH_PROBE: probePrefix },
      cwd: root,
    });
    cleanups.push(() => server.stop());
    const auth = { authorization: `Bearer ${token}` };
    const http = createHttpClient(server.url, { concurrency: IN_FLIGHT });
    cleanups.push(() => http.close());

    const invoke = (tool, args) => http.request('POST', '/api/tools/invoke', { headers: auth, body: { tool, arguments: args } }).then((r) => JSON.parse(r.text));
    const httpTarget = await pickCallTarget(async (name, args) => {
      const env = await invoke(name, args);
      return { structuredContent: env, isError: !env.success };
    }, tools);

    await sleep(1000);
    const idleRss = rssOf(server.child.pid);
    const idleMem = await memoryOf(server.child, probePrefix);
    rows.push(metric('idle RSS (HTTP server)', idleRss / MB, 'MB', '≤ 120'));

    log('http: bare SDK server baseline start');
    const bareServer = await startListening([bare, 'http'], { env: baseEnv, cwd: root });
    cleanups.push(() => bareServer.stop());
    await sleep(500);
    rows[rows.findIndex((r) => r.name.startsWith('idle RSS'))].baseline = round(rssOf(bareServer.child.pid) / MB, 1);
    const bareHttp = createHttpClient(bareServer.url, { concurrency: IN_FLIGHT });
    cleanups.push(() => bareHttp.close());
    const bareSid = await openMcpSession(bareHttp);
    await sendInitialized(bareHttp, bareSid);

    // Sessions expire after SESSION_IDLE_SECONDS (short, for the abandoned-sessions figure), so each
    // /mcp round opens its own session before the clock starts.
    const kernelSession = async () => {
      const id = await openMcpSession(http, { headers: auth });
      await sendInitialized(http, id, { headers: auth });
      return id;
    };
    const bareSession = async () => {
      const id = await openMcpSession(bareHttp);
      await sendInitialized(bareHttp, id);
      return id;
    };
    const mcpSucceeded = (res) => res.status === 200 && rpcMessages(res).some((m) => m.result?.structuredContent?.success === true);
    /** name → () => once(): a fresh closure per round. */
    const loads = {
      mcp: async () => {
        const id = await kernelSession();
        return async () => mcpSucceeded(await mcpToolCall(http, id, httpTarget.name, httpTarget.args, { headers: auth }));
      },
      trivial: existsSync(acme)
        ? async () => {
            const id = await kernelSession();
            return async () => mcpSucceeded(await mcpToolCall(http, id, 'acme_hello', { name: 'bench' }, { headers: auth }));
          }
        : undefined,
      invoke: async () => async () => (await invoke(httpTarget.name, httpTarget.args)).success === true,
      bare: async () => {
        const id = await bareSession();
        return async () => {
          const res = await mcpToolCall(bareHttp, id, 'echo', { text: 'x' });
          return res.status === 200 && rpcMessages(res).some((m) => m.result && !m.result.isError);
        };
      },
    };
    // Rounds interleave the kernel and the baseline so a busy machine skews both alike; each figure
    // is the median over rounds.
    const results = Object.fromEntries(Object.keys(loads).map((k) => [k, []]));
    for (const prepare of Object.values(loads)) if (prepare) await runLoad({ total: 200, concurrency: IN_FLIGHT, once: await prepare() });
    for (let r = 0; r < HTTP_ROUNDS; r++) {
      log(`http: load round ${r + 1}/${HTTP_ROUNDS}`);
      for (const [name, prepare] of Object.entries(loads)) {
        if (prepare) results[name].push(await runLoad({ total: HTTP_CALLS / HTTP_ROUNDS, concurrency: IN_FLIGHT, once: await prepare() }));
      }
    }
    await bareServer.stop();
    // A figure with failed calls measures errors, not work: it is shown as NaN with the failure count.
    const summary = (list) => {
      if (!list.length) return undefined;
      const failures = list.reduce((a, l) => a + l.failures, 0);
      const valid = (v) => (failures ? NaN : v);
      return { perSecond: valid(median(list.map((l) => l.perSecond))), p95: valid(median(list.map((l) => l.p95))), failures };
    };
    const [mcpLoad, trivialLoad, invokeLoad, bareLoad] = ['mcp', 'trivial', 'invoke', 'bare'].map((k) => summary(results[k]));

    const loadNote = (l, tool = httpTarget.name) =>
      `${HTTP_CALLS} calls of ${tool} in ${HTTP_ROUNDS} rounds interleaved with the baseline, ${IN_FLIGHT} in flight; median of rounds${l.failures ? `; ${l.failures} FAILED` : ''}`;
    rows.push(metric('HTTP /mcp calls/s', mcpLoad.perSecond, 'calls/s', '≥ 2000', bareLoad.perSecond, loadNote(mcpLoad)));
    rows.push(metric('HTTP /mcp p95', mcpLoad.p95, 'ms', '≤ 8', bareLoad.p95));
    if (trivialLoad) {
      rows.push(metric('HTTP /mcp calls/s, trivial tool (acme_hello)', trivialLoad.perSecond, 'calls/s', '≥ 2000', bareLoad.perSecond,
        `kernel overhead only (fixture plugin's greeting vs the bare server's echo); ${loadNote(trivialLoad, 'acme_hello')}`));
      rows.push(metric('HTTP /mcp p95, trivial tool (acme_hello)', trivialLoad.p95, 'ms', '≤ 8', bareLoad.p95));
    }
    // Plain JSON POST: the SDK has no counterpart, so no baseline.
    rows.push(metric('HTTP /api/tools/invoke calls/s', invokeLoad.perSecond, 'calls/s', '≥ 2000', undefined, loadNote(invokeLoad)));
    rows.push(metric('HTTP /api/tools/invoke p95', invokeLoad.p95, 'ms', '≤ 8'));

    log(`http: ${ABANDONED_SESSIONS} abandoned sessions`);
    const idleAfterLoad = await memoryOf(server.child, probePrefix);
    const firstAbandoned = [];
    await runLoad({
      total: ABANDONED_SESSIONS,
      concurrency: IN_FLIGHT,
      once: async () => {
        const id = await openMcpSession(http, { headers: auth });
        if (firstAbandoned.length === 0) firstAbandoned.push(id);
        return true;
      },
    });
    const peak = await memoryOf(server.child, probePrefix);
    await sleep(SESSION_IDLE_SECONDS * 1000 + 1500);
    const probeOld = await mcpToolCall(http, firstAbandoned[0], httpTarget.name, httpTarget.args, { headers: auth });
    const after = await memoryOf(server.child, probePrefix);
    const afterRss = rssOf(server.child.pid);
    rows.push(
      metric(`heap used after ${ABANDONED_SESSIONS} abandoned sessions expired`, after.heapUsed / MB, 'MB', `≤ ${round(idleMem.heapUsed / MB + 50, 1)}`, undefined,
        `idle ${round(idleMem.heapUsed / MB, 1)} MB (after load ${round(idleAfterLoad.heapUsed / MB, 1)}), with sessions open ${round(peak.heapUsed / MB, 1)} MB; ` +
          `expired session answers HTTP ${probeOld.status}${probeOld.status === 404 ? '' : ' (EXPECTED 404: sessions did not expire)'}; RSS now ${round(afterRss / MB, 1)} MB; gc ${after.gc ? 'forced' : 'NOT forced'}`),
    );
  } finally {
    for (const fn of cleanups.reverse()) await Promise.resolve().then(fn).catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

function metric(name, value, unit, target, baseline, note) {
  const digits = unit === 'ms' || unit === 'µs' ? 3 : 1;
  const row = { name, value: round(value, digits), unit, target };
  if (baseline !== undefined) {
    row.baseline = round(baseline, digits);
    row.ratio = round(value / baseline, 2);
  }
  if (note) row.note = note;
  return row;
}

const isSuccess = (r) => r.structuredContent?.success === true;
const failuresNote = (t) => (t.failures ? `; ${t.failures} calls FAILED` : '');

/** Spawns a stdio server and times spawn → initialize → first tools/list. */
async function stdioStart(command, args, env, cwd) {
  const transport = new StdioClientTransport({ command, args, env, cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (c) => (stderr = (stderr + c).slice(-4096)));
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const t0 = nowMs();
  try {
    await client.connect(transport);
    const list = await client.listTools();
    return { ms: nowMs() - t0, list, client, close: () => client.close() };
  } catch (err) {
    await client.close().catch(() => undefined);
    throw new Error(`${args.join(' ')} failed: ${err.message}; stderr: ${stderr}`);
  }
}

/** Starts a stdio server under the probe, lists tools, disconnects, and returns every module it loaded. */
async function modulesOfStart(command, args, env, cwd, prefix) {
  const s = await stdioStart(command, args, { ...env, TK_BENCH_PROBE: prefix, TK_BENCH_PROBE_MODULES: '1' }, cwd);
  await s.close();
  const exitFile = `${prefix}.exit.json`;
  for (let i = 0; i < 50 && !existsSync(exitFile); i++) await sleep(100);
  if (!existsSync(exitFile)) throw new Error('the probe wrote no module list (server did not exit cleanly)');
  const cjs = JSON.parse(readFileSync(exitFile, 'utf8')).cjs;
  const esm = existsSync(`${prefix}.esm`) ? readFileSync(`${prefix}.esm`, 'utf8').split('\n').filter(Boolean).map((u) => (u.startsWith('file:') ? new URL(u).pathname : u)) : [];
  return [...new Set([...cjs, ...esm])];
}

/** get_project_summary on a fresh project when the tool exists; list_projects otherwise. */
async function pickCallTarget(call, tools) {
  const names = new Set(tools.map((t) => t.name));
  if (names.has('get_project_summary') && names.has('create_project')) {
    const res = await call('create_project', { name: `Bench ${Date.now()}`, force_create: true });
    const r = res.structuredContent?.result;
    const projectId = r?.project_id ?? r?.id ?? r?.project?.project_id;
    if (res.structuredContent?.success && projectId !== undefined) {
      const probe = await call('get_project_summary', { project_id: projectId });
      if (probe.structuredContent?.success) return { name: 'get_project_summary', args: { project_id: projectId }, fallback: false };
    }
  }
  return { name: 'list_projects', args: {}, fallback: true };
}

async function timeCalls(once, n, ok) {
  for (let i = 0; i < 200; i++) await once();
  const samples = [];
  let failures = 0;
  for (let i = 0; i < n; i++) {
    const t0 = nowMs();
    const r = await once();
    samples.push(nowMs() - t0);
    if (!ok(r)) failures++;
  }
  // Failed calls would time errors, not work: such a figure is NaN, with the count in the note.
  return failures ? { p50: NaN, p99: NaN, failures } : { p50: percentile(samples, 50), p99: percentile(samples, 99), failures };
}

/** Boots the kernel in this process and times tools/list through an in-memory client and the registry. */
async function cachedListTimes(root, dataDir) {
  const { Kernel, createMcpServer } = await import(pathToFileURL(path.join(root, 'kernel', 'dist', 'host.js')).href);
  const { pino } = await import('pino');
  const kernel = await Kernel.boot({ env: {}, logger: pino({ level: 'silent' }), overrides: { dataDir, log: { level: 'silent' } } });
  try {
    const user = await kernel.users.ensureUser('bench');
    const server = createMcpServer(kernel, () => ({ userId: user.id, username: user.username, via: 'test' }));
    const clientMean = await inMemoryListMean(server);
    const first = kernel.registry.listing();
    const N = 100_000;
    const t0 = nowMs();
    let same = true;
    for (let i = 0; i < N; i++) same = kernel.registry.listing() === first && same;
    const registryMicros = ((nowMs() - t0) / N) * 1000;
    const bare = new McpServer({ name: 'bare', version: '1.0.0' });
    bare.registerTool('echo', { description: 'Echo the text.' }, async () => ({ content: [{ type: 'text', text: 'x' }] }));
    const bareMean = await inMemoryListMean(bare);
    return { clientMean, bareMean, registryMicros, sameInstance: same };
  } finally {
    await kernel.close();
  }
}

async function inMemoryListMean(server) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([client.connect(a), server.connect(b)]);
  for (let i = 0; i < 200; i++) await client.listTools();
  const samples = [];
  for (let i = 0; i < LIST_CALLS; i++) {
    const t0 = nowMs();
    await client.listTools();
    samples.push(nowMs() - t0);
  }
  await client.close();
  return mean(samples);
}

/** Asks the probed server for process.memoryUsage() after a forced GC (SIGUSR2). */
async function memoryOf(child, prefix) {
  const file = `${prefix}.mem.json`;
  const since = Date.now();
  child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await sleep(50);
    if (existsSync(file)) {
      const m = JSON.parse(readFileSync(file, 'utf8'));
      if (m.at >= since) return m;
    }
  }
  throw new Error('the server did not report its memory on SIGUSR2');
}
