import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Caller } from '../plugin-api/caller.js';
import type { Kernel } from '../runtime/kernel.js';
import { createMcpServer } from './server.js';

/** Serves MCP on stdin/stdout as the configured local user. Resolves when the client disconnects. */
export async function serveStdio(kernel: Kernel): Promise<{ closed: Promise<void> }> {
  const user = await kernel.users.ensureUser(kernel.config.stdio.user);
  const caller: Caller = { userId: user.id, username: user.username, via: 'stdio' };
  const server = createMcpServer(kernel, () => caller);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on('end', () => resolve());
  });
  await server.connect(transport);
  return { closed };
}
