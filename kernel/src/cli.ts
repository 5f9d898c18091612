#!/usr/bin/env node
import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { firstStartToken } from './auth/first-start.js';
import { loadConfig } from './config/load.js';
import { BootError } from './plugin-api/errors.js';
import { findAppRoot } from './runtime/app-root.js';
import type { HttpFrontend } from './http/app.js';
import type { Kernel } from './runtime/kernel.js';

const USAGE = `Usage: testkeeper <command> [options]

Commands:
  serve --stdio                       MCP over stdin/stdout as the configured local user
  serve --http [--port N] [--host H]  Streamable HTTP on /mcp, plus /api/tools/invoke and /healthz
  token create --user NAME [--label L] [--json]  create an API token (printed once)
  token revoke (--id N | --prefix P | --user NAME)
  token list [--json]
  plugins list [--json]               plugins, toolsets, tools and whether each is enabled
  migrate                             run pending migrations and exit
  worker                              only process background jobs (shares the queue on PostgreSQL)
  reload                              make a running HTTP server re-read its configuration

Options: --config FILE (also TESTKEEPER_CONFIG); env TESTKEEPER_DATA_DIR, TESTKEEPER_STORAGE_URL
(postgres://... selects PostgreSQL), TESTKEEPER_PORT, TESTKEEPER_HOST, TESTKEEPER_LOG_LEVEL.
Exit codes: 0 ok, 1 unexpected error, 2 bad configuration or usage.`;

function parseCli() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        stdio: { type: 'boolean' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        config: { type: 'string' },
        user: { type: 'string' },
        label: { type: 'string' },
        id: { type: 'string' },
        prefix: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new BootError('bad_option', `${(e as Error).message}\n${USAGE}`);
  }
}

const out = (s: string) => process.stdout.write(s + '\n');
const err = (s: string) => process.stderr.write(s + '\n');

type Values = ReturnType<typeof parseCli>['values'];
let values: Values = {};

/** The kernel (and with it TypeORM, the SDK, plugins) loads only for commands that need it. */
async function boot(extra: { migrate?: boolean } = {}) {
  const { Kernel } = await import('./runtime/kernel.js');
  return Kernel.boot({ file: values.config, ...extra });
}

const pidFileIn = (dataDir: string) => path.join(dataDir, 'testkeeper.pid');

/** SIGHUP re-reads the configuration; a bad file is logged and the running one kept. */
function reloadOnHangup(kernel: Kernel) {
  process.on('SIGHUP', () => {
    try {
      kernel.reload();
    } catch (e) {
      kernel.logger.error({ err: e }, 'configuration reload failed; keeping the previous configuration');
    }
  });
}

/**
 * Runs `shutdown` once on SIGINT/SIGTERM, then exits 0. `process.on`, not `once`: a signal-exit
 * hook (some libraries install one) re-raises a signal when it sees no other listener left, which would kill
 * the process before the shutdown finished.
 */
function exitOnSignals(shutdown: () => Promise<void>) {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    shutdown()
      .catch((e) => err(`testkeeper: shutdown failed: ${(e as Error).message}`))
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function serveHttp() {
  const port = values.port !== undefined ? Number(values.port) : undefined;
  if (port !== undefined && (values.port === '' || !Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new BootError('bad_option', `--port must be an integer 0-65535 (got "${values.port}")`);
  }
  const kernel = await boot();
  let http: HttpFrontend | undefined;
  exitOnSignals(async () => {
    await http?.close();
    await kernel.close();
    removePidFile(kernel.config.dataDir);
  });
  reloadOnHangup(kernel);
  try {
    const { HttpFrontend } = await import('./http/app.js');
    http = new HttpFrontend(kernel, { port, host: values.host });
    const addr = await http.listen();
    mkdirSync(kernel.config.dataDir, { recursive: true });
    writeFileSync(pidFileIn(kernel.config.dataDir), String(process.pid));
    kernel.logger.info({ url: addr.url, storage: kernel.storage.dialect, tools: kernel.registry.listing().length }, 'http server listening');
    const banner = await firstStartToken(kernel.tokens, kernel.config, addr.url, kernel.logger);
    if (banner) err(banner);
    // Machine-readable contract (tests, supervisors): the only line this command writes to stdout.
    out(JSON.stringify({ listening: addr.url, mcp: `${addr.url}/mcp` }));
  } catch (e) {
    await http?.close().catch(() => undefined);
    await kernel.close().catch(() => undefined);
    throw e;
  }
}

function removePidFile(dataDir: string) {
  const file = pidFileIn(dataDir);
  try {
    if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
  } catch {
    /* already gone */
  }
}

async function serveStdioCmd() {
  // stdout carries JSON-RPC only: a stray console.log from any plugin would corrupt the stream.
  console.log = console.info = console.debug = console.error;
  const kernel = await boot();
  exitOnSignals(() => kernel.close());
  reloadOnHangup(kernel);
  const { serveStdio } = await import('./mcp/stdio.js');
  const { closed } = await serveStdio(kernel);
  await closed;
  await kernel.close();
  process.exit(0);
}

const USERNAME = /^[A-Za-z0-9._@-]{1,100}$/;

async function tokenCmd(sub: string | undefined) {
  if (sub !== 'create' && sub !== 'revoke' && sub !== 'list') throw new BootError('bad_command', `token ${sub ?? ''}: expected create, revoke or list`);
  // Usage errors first: no reason to open the database for them.
  if (sub === 'create' && !values.user) throw new BootError('bad_option', 'token create needs --user NAME');
  if (values.user !== undefined && !USERNAME.test(values.user)) throw new BootError('bad_option', `--user must be 1-100 of A-Z a-z 0-9 . _ @ - (got "${values.user}")`);
  if ((values.label ?? '').length > 100) throw new BootError('bad_option', '--label must be at most 100 characters');
  const id = values.id !== undefined ? Number(values.id) : undefined;
  if (id !== undefined && !Number.isInteger(id)) throw new BootError('bad_option', `--id must be a token id from "token list" (got "${values.id}")`);
  if (sub === 'revoke' && id === undefined && !values.prefix && !values.user) throw new BootError('bad_option', 'token revoke needs --id N, --prefix P or --user NAME');
  const kernel = await boot();
  try {
    if (sub === 'create') {
      const t = await kernel.tokens.issue(values.user!, values.label ?? '');
      if (values.json) out(JSON.stringify(t));
      else {
        err(`Token ${t.id} for user "${t.username}"; shown only now:`);
        out(t.token);
      }
    } else if (sub === 'revoke') {
      const n = await kernel.tokens.revoke({ id, prefix: values.prefix, username: values.user });
      if (n === 0) throw new BootError('not_found', 'No live token matched; see "testkeeper token list"');
      out(`revoked ${n} token(s)`);
    } else {
      const rows = await kernel.tokens.list();
      if (values.json) return out(JSON.stringify(rows));
      out(['id', 'prefix', 'user', 'state', 'created', 'label'].join('\t'));
      for (const r of rows) out([r.id, `${r.prefix}…`, r.username, r.revoked_at ? 'revoked' : 'live', r.created_at, r.label].join('\t'));
    }
  } finally {
    await kernel.close();
  }
}

async function pluginsList() {
  const kernel = await boot();
  try {
    const tools = kernel.registry.all();
    const rows = kernel.describePlugins().map((p) => {
      const mine = tools.filter((t) => t.plugin === p.id);
      const toolsets = [...new Set(mine.map((t) => t.toolset))].map((id) => {
        const members = mine.filter((t) => t.toolset === id);
        return {
          id,
          enabled: members.some((t) => t.verdict.enabled),
          tools: members.map((t) => ({ name: t.name, enabled: t.verdict.enabled, ...(t.verdict.enabled ? {} : { reason: t.verdict.reason }) })),
        };
      });
      return { ...p, toolsets };
    });
    if (values.json) return out(JSON.stringify(rows, null, 2));
    for (const p of rows) {
      out(`${p.id} (${p.package}@${p.version}, ${p.source}): ${p.loaded ? (p.enabled ? 'enabled' : 'disabled') : 'not loaded'}`);
      for (const ts of p.toolsets) {
        out(`  toolset ${ts.id}: ${ts.enabled ? 'enabled' : 'disabled'}`);
        for (const t of ts.tools) out(`    ${t.enabled ? '+' : '-'} ${t.name}${t.enabled ? '' : ` (${t.reason})`}`);
      }
    }
  } finally {
    await kernel.close();
  }
}

/** Boots the kernel and only processes background jobs (no transport) until SIGINT/SIGTERM. */
async function workerCmd() {
  const kernel = await boot();
  const { runJobWorker } = await import('./jobs/worker.js');
  await runJobWorker(kernel, out);
}

async function migrateCmd() {
  const kernel = await boot({ migrate: true });
  try {
    out(`migrations up to date (${kernel.storage.dialect})`);
  } finally {
    await kernel.close();
  }
}

/** Signals the HTTP server named by the pid file in the configured data directory. */
function reloadCmd() {
  const appRoot = findAppRoot();
  const config = loadConfig({ appRoot, file: values.config });
  const file = pidFileIn(path.resolve(appRoot, config.dataDir));
  if (!existsSync(file)) throw new BootError('not_running', `No running HTTP server found (no ${file}); a stdio server reloads on SIGHUP`);
  const pid = Number(readFileSync(file, 'utf8').trim());
  try {
    process.kill(pid, 'SIGHUP');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') throw new BootError('not_running', `The server recorded in ${file} (pid ${pid}) is not running`);
    throw e;
  }
  out(`sent reload to ${pid}`);
}

async function main() {
  const parsed = parseCli();
  values = parsed.values;
  const [cmd, sub] = parsed.positionals;
  if (values.help || !cmd) return out(USAGE);
  if (cmd === 'serve') {
    if (values.http && values.stdio) throw new BootError('bad_option', 'serve takes --stdio or --http, not both');
    if (values.http) return serveHttp();
    if (values.stdio) return serveStdioCmd();
    throw new BootError('bad_option', 'serve needs --stdio or --http');
  }
  if (cmd === 'token') return tokenCmd(sub);
  if (cmd === 'plugins' && (sub ?? 'list') === 'list') return pluginsList();
  if (cmd === 'migrate') return migrateCmd();
  if (cmd === 'reload') return reloadCmd();
  if (cmd === 'worker') return workerCmd();
  throw new BootError('bad_command', `Unknown command "${cmd}".\n${USAGE}`);
}

main().catch((e: unknown) => {
  err(e instanceof BootError ? `testkeeper: ${e.message}` : `testkeeper: ${(e as Error).stack ?? e}`);
  process.exit(e instanceof BootError ? 2 : 1);
});
