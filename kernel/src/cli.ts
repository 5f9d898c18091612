#!/usr/bin/env node
import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { HttpFrontend } from './http/app.js';
import { serveStdio } from './mcp/stdio.js';
import { BootError } from './plugin-api/errors.js';
import { Kernel } from './runtime/kernel.js';

const USAGE = `Usage: testkeeper <command> [options]

Commands:
  serve --stdio                     MCP over stdin/stdout as the configured local user
  serve --http [--port N] [--host H]  Streamable HTTP on /mcp, plus /api/tools/invoke
  token create --user NAME [--label L]  create an API token (printed once)
  token revoke (--id N | --prefix P | --user NAME)
  token list
  plugins list                      plugins, toolsets, tools and whether each is enabled
  migrate                           run pending migrations and exit
  reload                            ask a running HTTP server to re-read its configuration

Options: --config FILE (also TESTKEEPER_CONFIG); env TESTKEEPER_DATA_DIR, TESTKEEPER_STORAGE_URL,
TESTKEEPER_PORT, TESTKEEPER_HOST, TESTKEEPER_LOG_LEVEL.`;

const { values, positionals } = parseArgs({
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

const out = (s: string) => process.stdout.write(s + '\n');
const err = (s: string) => process.stderr.write(s + '\n');

async function boot(extra: { migrate?: boolean; overrides?: Record<string, unknown> } = {}) {
  return Kernel.boot({ file: values.config, ...extra });
}

function pidFile(kernel: Kernel) {
  return path.join(kernel.config.dataDir, 'testkeeper.pid');
}

async function serveHttp() {
  const kernel = await boot();
  const port = values.port !== undefined ? Number(values.port) : undefined;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new BootError('bad_option', `--port must be 0-65535`);
  const http = new HttpFrontend(kernel, { port, host: values.host });
  const addr = await http.listen();
  mkdirSync(kernel.config.dataDir, { recursive: true });
  writeFileSync(pidFile(kernel), String(process.pid));
  kernel.logger.info({ url: addr.url, storage: kernel.storage.dialect, tools: kernel.registry.listing().length }, 'http server listening');
  // First start with no tokens: issue one for the local owner and print a ready-to-paste config.
  if (kernel.config.http.auth === 'token' && (await kernel.tokens.countLive()) === 0) {
    const issued = await kernel.tokens.issue(kernel.config.stdio.user, 'first-start');
    err(firstStartBanner(addr.url, issued.token, issued.username));
  }
  out(JSON.stringify({ listening: addr.url, mcp: `${addr.url}/mcp` }));
  process.on('SIGHUP', () => {
    try {
      kernel.reload();
    } catch (e) {
      kernel.logger.error({ err: e }, 'configuration reload failed; keeping the previous configuration');
    }
  });
  const stop = async () => {
    await http.close();
    await kernel.close();
    try {
      unlinkSync(pidFile(kernel));
    } catch {
      /* already gone */
    }
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function firstStartBanner(url: string, token: string, user: string): string {
  const client = { mcpServers: { testkeeper: { type: 'http', url: `${url}/mcp`, headers: { Authorization: `Bearer ${token}` } } } };
  return [
    '',
    `First start: created an API token for user "${user}". It is shown only now; store it safely.`,
    `  ${token}`,
    'MCP client configuration (paste into your client):',
    JSON.stringify(client, null, 2),
    `CI / curl: curl -s -H 'Authorization: Bearer ${token}' -H 'content-type: application/json' \\`,
    `  -d '{"tool":"list_projects","arguments":{}}' ${url}/api/tools/invoke`,
    '',
  ].join('\n');
}

async function serveStdioCmd() {
  const kernel = await boot();
  const { closed } = await serveStdio(kernel);
  process.on('SIGHUP', () => {
    try {
      kernel.reload();
    } catch (e) {
      kernel.logger.error({ err: e }, 'configuration reload failed; keeping the previous configuration');
    }
  });
  await closed;
  await kernel.close();
  process.exit(0);
}

async function tokenCmd(sub: string | undefined) {
  const kernel = await boot();
  try {
    if (sub === 'create') {
      if (!values.user) throw new BootError('bad_option', 'token create needs --user NAME');
      const t = await kernel.tokens.issue(values.user, values.label ?? '');
      if (values.json) out(JSON.stringify(t));
      else {
        err(`Token for ${t.username} (id ${t.id}); shown once:`);
        out(t.token);
      }
    } else if (sub === 'revoke') {
      const n = await kernel.tokens.revoke({ id: values.id ? Number(values.id) : undefined, prefix: values.prefix, username: values.user });
      if (n === 0) throw new BootError('not_found', 'No live token matched');
      out(`revoked ${n} token(s)`);
    } else if (sub === 'list') {
      const rows = await kernel.tokens.list();
      out(values.json ? JSON.stringify(rows) : rows.map((r) => `${r.id}\t${r.prefix}…\t${r.username}\t${r.revoked_at ? 'revoked' : 'live'}\t${r.label}`).join('\n'));
    } else throw new BootError('bad_command', `token ${sub ?? ''}: expected create, revoke or list`);
  } finally {
    await kernel.close();
  }
}

async function pluginsList() {
  const kernel = await boot();
  try {
    const tools = kernel.registry.all();
    const rows = kernel.describePlugins().map((p) => ({
      ...p,
      tools: tools.filter((t) => t.plugin === p.id).map((t) => ({ name: t.name, toolset: t.toolset, enabled: t.verdict.enabled, ...(t.verdict.enabled ? {} : { reason: t.verdict.reason }) })),
    }));
    if (values.json) return out(JSON.stringify(rows, null, 2));
    for (const p of rows) {
      out(`${p.id} (${p.package}@${p.version}, ${p.source}) ${p.loaded ? 'loaded' : 'not loaded'}`);
      for (const t of p.tools) out(`  ${t.enabled ? '+' : '-'} ${t.name}  [${t.toolset}]${t.enabled ? '' : ` (${t.reason})`}`);
    }
  } finally {
    await kernel.close();
  }
}

async function migrateCmd() {
  const kernel = await boot({ migrate: true });
  out(`migrations up to date (${kernel.storage.dialect})`);
  await kernel.close();
}

async function reloadCmd() {
  const kernel = await boot({ migrate: false });
  const file = pidFile(kernel);
  await kernel.close();
  if (!existsSync(file)) throw new BootError('not_running', `No running server found (no ${file})`);
  const pid = Number(readFileSync(file, 'utf8'));
  process.kill(pid, 'SIGHUP');
  out(`sent reload to ${pid}`);
}

async function main() {
  const [cmd, sub] = positionals;
  if (values.help || !cmd) return out(USAGE);
  if (cmd === 'serve') {
    if (values.http) return serveHttp();
    if (values.stdio) return serveStdioCmd();
    throw new BootError('bad_option', 'serve needs --stdio or --http');
  }
  if (cmd === 'token') return tokenCmd(sub);
  if (cmd === 'plugins' && (sub ?? 'list') === 'list') return pluginsList();
  if (cmd === 'migrate') return migrateCmd();
  if (cmd === 'reload') return reloadCmd();
  if (cmd === 'worker') throw new BootError('not_available', 'worker needs the job queue (not in this build yet)');
  throw new BootError('bad_command', `Unknown command "${cmd}".\n${USAGE}`);
}

main().catch((e: unknown) => {
  err(e instanceof BootError ? `testkeeper: ${e.message}` : `testkeeper: ${(e as Error).stack ?? e}`);
  process.exit(e instanceof BootError ? 2 : 1);
});
