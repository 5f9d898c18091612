import type { KernelConfig } from '../config/schema.js';
import type { Logger } from '../plugin-api/services.js';
import type { ApiTokens } from './users.js';

/**
 * First start of an HTTP server with token auth and an empty token table: creates the local owner
 * with one token and returns a banner to show once (on stderr, never stdout). Null otherwise.
 */
export async function firstStartToken(tokens: ApiTokens, config: KernelConfig, url: string, logger: Logger): Promise<string | null> {
  if (config.http.auth !== 'token' || (await tokens.countAll()) > 0) return null;
  const issued = await tokens.issue(config.stdio.user, 'first-start');
  logger.info({ user: issued.username, tokenId: issued.id, prefix: issued.prefix }, 'first start: issued an API token for the local owner');
  return firstStartBanner(url, issued.token, issued.username);
}

export function firstStartBanner(url: string, token: string, user: string): string {
  const client = { mcpServers: { testkeeper: { type: 'http', url: `${url}/mcp`, headers: { Authorization: `Bearer ${token}` } } } };
  return [
    '',
    `First start: created user "${user}" and an API token. It is shown only now; store it safely.`,
    `  ${token}`,
    'MCP client configuration (paste into your client):',
    JSON.stringify(client, null, 2),
    'CI / curl:',
    `  curl -s -H 'Authorization: Bearer ${token}' -H 'content-type: application/json' \\`,
    `    -d '{"tool":"list_projects","arguments":{}}' ${url}/api/tools/invoke`,
    'More tokens: testkeeper token create --user NAME; revoke: testkeeper token revoke --id N',
    '',
  ].join('\n');
}
