import { z } from 'zod';
import type { ToolContext } from '../plugin-api/caller.js';
import type { ToolAnnotations } from '../plugin-api/decorators.js';

/** One loaded tool: its metadata, JSON schema (computed once) and bound handler. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description: string;
  input: z.ZodObject;
  annotations: ToolAnnotations;
  toolset: string;
  plugin: string;
  /** The MCP `tools/list` entry, built once at load. */
  listing: ToolListing;
  handler(args: unknown, ctx: ToolContext): Promise<unknown>;
}

export interface ToolListing {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
}

/** JSON Schema for a tool's input, with zod's own converter (draft 2020-12, as MCP expects). */
export function toInputJsonSchema(input: z.ZodObject): Record<string, unknown> {
  const schema = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return compactSchema(schema) as Record<string, unknown>;
}

/** Length and size limits: enforced by zod on the way in, with a message that names the limit. */
const ENFORCED_NOT_ADVERTISED = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);

/**
 * Every byte of tools/list is paid for in every client's context window, so the advertised schema
 * keeps what helps a model build a call (types, enums, defaults, numeric ranges) and drops what
 * only validation needs: string/array size limits, zod's ±(2^53-1) integer bounds, the `> 0` of
 * ids, and empty `properties` of records. zod still enforces all of them and names them in errors.
 */
function compactSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (ENFORCED_NOT_ADVERTISED.has(key)) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'exclusiveMinimum' && value === 0) continue;
    if (key === 'properties' && isEmptyObject(value) && 'additionalProperties' in (node as object)) continue;
    out[key] = compactSchema(value);
  }
  return out;
}

function isEmptyObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}
