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
  return schema;
}
