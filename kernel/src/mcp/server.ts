import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Caller, SamplingChannel } from '../plugin-api/caller.js';
import type { ToolEnvelope } from '../plugin-api/results.js';
import type { Kernel } from '../runtime/kernel.js';

export const SERVER_INSTRUCTIONS =
  'Testkeeper manages test projects, test cases and automation scripts, and runs tests. ' +
  'Every tool returns JSON with success and either result or error {code, message, hint}. ' +
  'Start with list_projects; ids are integers except executions, jobs and pending tests.';

/** The MCP result for an envelope: JSON text for older clients plus structuredContent. */
export function toCallToolResult(envelope: ToolEnvelope): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    ...(envelope.success ? {} : { isError: true }),
  };
}

export interface McpServerOptions {
  /**
   * Subscribe this server to registry changes itself (default). The HTTP front end passes false and
   * fans one registry listener out to all its sessions instead of adding one listener per session.
   */
  followRegistry?: boolean;
}

let callSeq = 0;
const callPrefix = Math.random().toString(36).slice(2, 6);

/**
 * One protocol Server per connection (the SDK keeps per-connection state), all sharing the kernel's
 * single registry: `tools/list` is served from the registry's cache, so sessions are cheap.
 */
export function createMcpServer(kernel: Kernel, resolveCaller: (authExtra: unknown) => Caller, opts: McpServerOptions = {}): Server {
  const server = new Server(
    { name: 'testkeeper', version: kernel.version.version },
    { capabilities: { tools: { listChanged: true } }, instructions: SERVER_INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: kernel.registry.listing() }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const caller = resolveCaller(extra.authInfo?.extra);
    const started = performance.now();
    const progressToken = request.params._meta?.progressToken;
    const rid = `${callPrefix}${(++callSeq).toString(36)}`;
    const outcome = await kernel.invoker.invoke(request.params.name, request.params.arguments, {
      caller,
      requestId: rid,
      signal: extra.signal,
      progress:
        progressToken === undefined
          ? undefined
          : async (progress, total, message) => {
              await extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
              });
            },
      sampling: server.getClientCapabilities()?.sampling ? samplingChannel(server) : undefined,
    });
    if (kernel.logger.isLevelEnabled('debug')) {
      kernel.logger.debug(
        {
          rid,
          session: extra.sessionId,
          tool: request.params.name,
          user: caller.username,
          ms: Math.round((performance.now() - started) * 10) / 10,
          ...(outcome.envelope.success ? {} : { code: outcome.envelope.error?.code }),
        },
        'tool call',
      );
    }
    // The spec makes an unknown tool a protocol error (-32602), not a tool result.
    if (!outcome.found) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    return toCallToolResult(outcome.envelope);
  });

  if (opts.followRegistry !== false) {
    const onChanged = () => {
      server.sendToolListChanged().catch(() => undefined);
    };
    kernel.registry.on('changed', onChanged);
    server.onclose = () => {
      kernel.registry.off('changed', onChanged);
    };
  }
  return server;
}

function samplingChannel(server: Server): SamplingChannel {
  return {
    async createMessage(req) {
      const res = await server.createMessage(
        {
          messages: [{ role: 'user', content: { type: 'text', text: req.prompt } }],
          maxTokens: req.maxTokens,
          ...(req.systemPrompt ? { systemPrompt: req.systemPrompt } : {}),
          ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        },
        { signal: req.signal },
      );
      const content = Array.isArray(res.content) ? res.content : [res.content];
      const text = content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      return { model: res.model, text };
    },
  };
}
