import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Caller } from '../plugin-api/caller.js';
import type { Kernel } from '../runtime/kernel.js';
import { createMcpServer } from './server.js';

/**
 * Serves MCP on stdin/stdout as the configured local user (created on first use; stdio never issues
 * a token). Resolves `closed` when the client disconnects: stdin ends or stdout breaks (EPIPE).
 */
export async function serveStdio(kernel: Kernel): Promise<{ closed: Promise<void> }> {
  const user = await kernel.users.ensureUser(kernel.config.stdio.user);
  const caller: Caller = { userId: user.id, username: user.username, via: 'stdio' };
  const server = createMcpServer(kernel, () => caller);
  server.onerror = (err) => kernel.logger.warn({ err: err.message }, 'stdio: bad message from the client');
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdout.once('error', (err) => {
      kernel.logger.debug({ err: err.message }, 'stdio: client went away');
      resolve();
    });
  });
  await server.connect(transport);
  kernel.logger.debug({ user: user.username }, 'stdio: serving');
  return { closed };
}
