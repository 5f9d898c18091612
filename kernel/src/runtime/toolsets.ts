import type { DependencyContainer } from 'tsyringe';
import { z } from 'zod';
import { BootError } from '../plugin-api/errors.js';
import { readToolsetMeta } from '../plugin-api/decorators.js';
import { toInputJsonSchema, type ToolDefinition } from '../registry/tool-definition.js';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Instantiates a toolset class from the plugin's container and turns its @Tool methods into definitions. */
export function buildToolDefinitions(pluginId: string, cls: Function, container: DependencyContainer): ToolDefinition[] {
  const { toolset, tools } = readToolsetMeta(cls);
  if (!toolset) throw new BootError('bad_toolset', `Plugin "${pluginId}": ${cls.name} is listed as a toolset but has no @Toolset decorator`);
  if (tools.length === 0) throw new BootError('bad_toolset', `Plugin "${pluginId}": toolset "${toolset.id}" has no @Tool methods`);
  const instance = container.resolve(cls as never) as Record<string, unknown>;
  return tools.map((t) => {
    const where = `Plugin "${pluginId}", tool "${t.name}"`;
    if (!TOOL_NAME.test(t.name)) throw new BootError('bad_tool', `${where}: names use 1-128 of A-Z a-z 0-9 _ . -`);
    const a = t.annotations as { readOnlyHint?: unknown; destructiveHint?: unknown };
    if (typeof a?.readOnlyHint !== 'boolean') throw new BootError('bad_tool', `${where}: annotations.readOnlyHint is required`);
    if (a.readOnlyHint === false && typeof a.destructiveHint !== 'boolean') {
      throw new BootError('bad_tool', `${where}: annotations.destructiveHint is required for a tool that writes`);
    }
    if (!(t.input instanceof z.ZodObject)) throw new BootError('bad_tool', `${where}: input must be a zod object schema`);
    const fn = instance[t.method];
    if (typeof fn !== 'function') throw new BootError('bad_tool', `${where}: ${t.method} is not a method`);
    const handler = fn.bind(instance) as ToolDefinition['handler'];
    const title = t.annotations.title;
    return {
      name: t.name,
      title,
      description: t.description,
      input: t.input,
      annotations: t.annotations,
      toolset: toolset.id,
      plugin: pluginId,
      handler: async (args, ctx) => handler(args, ctx),
      listing: {
        name: t.name,
        ...(title ? { title } : {}),
        description: t.description,
        inputSchema: toInputJsonSchema(t.input),
        annotations: t.annotations,
      },
    };
  });
}
