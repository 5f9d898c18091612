import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Real-process helpers: the built CLI (`kernel/dist/cli.js`) in a throwaway data directory. */

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CLI = path.join(REPO_ROOT, 'kernel/dist/cli.js');

export interface TempHome {
  dataDir: string;
  configFile: string;
  /** Replaces the config file given to every command with --config. */
  writeConfig(config: Record<string, unknown>): void;
  /** The child environment: this data dir, no TESTKEEPER_* inherited from the developer's shell. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  cleanup(): void;
}

export function tempHome(config: Record<string, unknown> = {}): TempHome {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tk-transport-'));
  const configFile = path.join(dataDir, 'config.json');
  const writeConfig = (c: Record<string, unknown>) => writeFileSync(configFile, JSON.stringify(c));
  writeConfig(config);
  return {
    dataDir,
    configFile,
    writeConfig,
    env(extra = {}) {
      const env: NodeJS.ProcessEnv = {};
      for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('TESTKEEPER_')) env[k] = v;
      return { ...env, TESTKEEPER_DATA_DIR: dataDir, ...extra };
    },
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one CLI command to completion. */
export function runCli(
  home: TempHome,
  args: string[],
  opts: { env?: Record<string, string>; timeoutMs?: number; /** Pass the home's --config (default true). */ config?: boolean } = {},
): Promise<CliResult> {
  const configArgs = opts.config === false ? [] : ['--config', home.configFile];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args, ...configArgs], { env: home.env(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`testkeeper ${args.join(' ')} timed out; stderr:\n${stderr}`));
    }, opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `token create --user NAME --json`: the secret and its id. */
export async function createToken(home: TempHome, user: string, env?: Record<string, string>): Promise<{ id: number; token: string }> {
  const r = await runCli(home, ['token', 'create', '--user', user, '--json'], { env });
  if (r.code !== 0) throw new Error(`token create failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export interface ServerProcess {
  url: string;
  mcpUrl: string;
  pid: number;
  proc: ChildProcess;
  /** Everything written to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Parsed JSON log lines from stderr. */
  logs(): Array<Record<string, unknown>>;
  /** Resolves when stderr matches (or fails after timeoutMs). */
  waitForStderr(re: RegExp, timeoutMs?: number): Promise<void>;
  /** SIGTERM and wait for exit; returns the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `serve --http` (on `--port 0` unless the args or TESTKEEPER_PORT choose one) and waits for
 * its `{"listening": url}` line on stdout.
 */
export function startHttpServer(home: TempHome, args: string[] = [], env?: Record<string, string>): Promise<ServerProcess> {
  const port = args.includes('--port') || env?.TESTKEEPER_PORT ? [] : ['--port', '0'];
  const proc = spawn(process.execPath, [CLI, 'serve', '--http', ...port, '--config', home.configFile, ...args], {
    env: home.env(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const waiters = new Set<() => void>();
  proc.stderr!.on('data', (d) => {
    stderr += d;
    for (const w of waiters) w();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start; stderr:\n${stderr}`));
    }, 20_000);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening; stderr:\n${stderr}`));
    });
    proc.stdout!.on('data', (d) => {
      stdout += d;
      const line = stdout.split('\n').find((l) => l.startsWith('{"listening"'));
      if (!line) return;
      clearTimeout(timer);
      const { listening, mcp } = JSON.parse(line) as { listening: string; mcp: string };
      resolve({
        url: listening,
        mcpUrl: mcp,
        pid: proc.pid!,
        proc,
        stdout: () => stdout,
        stderr: () => stderr,
        logs: () => jsonLines(stderr),
        waitForStderr(re, timeoutMs = 5000) {
          return new Promise<void>((ok, fail) => {
            const check = () => {
              if (!re.test(stderr)) return;
              waiters.delete(check);
              clearTimeout(t);
              ok();
            };
            const t = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`stderr never matched ${re}:\n${stderr.slice(-2000)}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        async stop() {
          if (proc.exitCode !== null) return proc.exitCode;
          proc.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}

export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{"level":'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** An SDK client over Streamable HTTP, authenticated with `token` when given. */
export async function httpClient(mcpUrl: string, token?: string, name = 'transport-test'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  });
  await client.connect(transport);
  return client;
}

/** The envelope of a tool result (structuredContent). */
export function envelopeOf(result: unknown): { success: boolean; result?: any; error?: { code: string; message: string; hint?: string } } {
  return (result as { structuredContent: any }).structuredContent;
}

/** A raw MCP initialize request body. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-fetch', version: '1.0.0' } },
};

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens a session with raw requests (initialize + notifications/initialized); returns its id. */
export async function openRawSession(mcpUrl: string, headers: Record<string, string> = {}): Promise<string> {
  const init = await fetch(mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(INITIALIZE) });
  await init.text();
  const sid = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !sid) throw new Error(`initialize answered ${init.status}`);
  const done = await fetch(mcpUrl, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await done.text();
  return sid;
}

/**
 * Opens the session's GET event stream (where unsolicited notifications arrive) and collects its
 * JSON-RPC messages. Resolves once the server answered, i.e. the stream is registered.
 */
export async function openEventStream(mcpUrl: string, sid: string, headers: Record<string, string> = {}): Promise<{ messages: any[]; close(): void }> {
  const ac = new AbortController();
  const res = await fetch(mcpUrl, {
    headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25', ...headers },
    signal: ac.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`GET stream answered ${res.status}`);
  const messages: any[] = [];
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += decoder.decode(value, { stream: true });
        for (let i = buf.indexOf('\n\n'); i !== -1; i = buf.indexOf('\n\n')) {
          const event = buf.slice(0, i);
          buf = buf.slice(i + 2);
          for (const line of event.split('\n')) if (line.startsWith('data:') && line.length > 5) messages.push(JSON.parse(line.slice(5)));
        }
      }
    } catch {
      /* aborted by close() */
    }
  })();
  return { messages, close: () => ac.abort() };
}

/** How many `notifications/tools/list_changed` a stream has received. */
export const listChangedCount = (messages: any[]) => messages.filter((m) => m.method === 'notifications/tools/list_changed').length;
