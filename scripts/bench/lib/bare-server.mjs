/**
 * The baseline: a bare MCP SDK server with one trivial tool, nothing else. `stdio` or `http`
 * (stateful Streamable HTTP on 127.0.0.1, like Testkeeper's /mcp). Prints {"listening": url}.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

function newServer() {
  const server = new McpServer({ name: 'bare', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo the text.', inputSchema: { text: z.string().optional() } }, async ({ text }) => ({
    content: [{ type: 'text', text: JSON.stringify({ success: true, result: { text: text ?? '' } }) }],
  }));
  return server;
}

const mode = process.argv[2] ?? 'stdio';
if (mode === 'stdio') {
  const transport = new StdioServerTransport();
  await newServer().connect(transport);
  process.stdin.on('end', () => process.exit(0));
} else {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const sid = req.headers['mcp-session-id'];
    let transport = sid ? sessions.get(sid) : undefined;
    if (!transport) {
      if (sid || body?.method !== 'initialize') {
        res.writeHead(404).end();
        return;
      }
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, transport) });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ listening: `http://127.0.0.1:${http.address().port}` }) + '\n');
  });
  process.on('SIGTERM', () => process.exit(0));
}
