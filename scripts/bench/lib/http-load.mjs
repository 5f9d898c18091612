import http from 'node:http';
import { nowMs, percentile } from './stats.mjs';

/** Keep-alive client for loopback load: a fixed number of requests, `concurrency` in flight. */
export function createHttpClient(baseUrl, { concurrency = 16 } = {}) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

  function request(method, path, { headers = {}, body } = {}) {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          agent,
          headers: {
            ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  return { request, close: () => agent.destroy() };
}

/** The JSON-RPC messages in a Streamable HTTP response (SSE `data:` lines or a JSON body). */
export function rpcMessages(res) {
  if ((res.headers['content-type'] ?? '').includes('text/event-stream')) {
    return res.text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => JSON.parse(l.slice(5)));
  }
  return res.text ? [JSON.parse(res.text)] : [];
}

const MCP_ACCEPT = 'application/json, text/event-stream';

/** Opens an MCP session over Streamable HTTP (initialize + initialized); returns its id. */
export async function openMcpSession(client, { path = '/mcp', headers = {} } = {}) {
  const init = await client.request('POST', path, {
    headers: { ...headers, accept: MCP_ACCEPT },
    body: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
    },
  });
  const sessionId = init.headers['mcp-session-id'];
  if (init.status !== 200 || !sessionId) throw new Error(`initialize failed: HTTP ${init.status} ${init.text.slice(0, 200)}`);
  return sessionId;
}

export async function sendInitialized(client, sessionId, { path = '/mcp', headers = {} } = {}) {
  const res = await client.request('POST', path, {
    headers: { ...headers, accept: MCP_ACCEPT, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  if (res.status !== 202) throw new Error(`notifications/initialized: HTTP ${res.status}`);
}

/** A tools/call request over an open session. */
export function mcpToolCall(client, sessionId, name, args, { path = '/mcp', headers = {}, id = 1 } = {}) {
  return client.request('POST', path, {
    headers: { ...headers, accept: MCP_ACCEPT, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
  });
}

/**
 * Runs `total` calls of `once(i)` with `concurrency` in flight; `once` resolves true on success.
 * Returns calls/s over the wall time and latency percentiles.
 */
export async function runLoad({ total, concurrency, once }) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const started = nowMs();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = nowMs();
        const ok = await once(i);
        latencies.push(nowMs() - t0);
        if (!ok) failures++;
      }
    }),
  );
  const wall = nowMs() - started;
  return { perSecond: (total / wall) * 1000, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), failures, wall };
}
