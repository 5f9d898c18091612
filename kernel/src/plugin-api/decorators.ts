import { injectable } from 'tsyringe';
import type { z } from 'zod';
import type { ToolContext } from './caller.js';

/** MCP tool annotations. `readOnlyHint` is mandatory; `destructiveHint` is mandatory for writes. */
export type ToolAnnotations =
  | { readOnlyHint: true; idempotentHint?: boolean; openWorldHint?: boolean; title?: string }
  | { readOnlyHint: false; destructiveHint: boolean; idempotentHint?: boolean; openWorldHint?: boolean; title?: string };

export interface ToolsetOptions {
  id: string;
  title: string;
  description: string;
}

export interface ToolOptions<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: S;
  annotations: ToolAnnotations;
}

export interface ToolMethodMeta extends ToolOptions {
  method: string;
}

export type ToolHandler<S extends z.ZodObject> = (args: z.output<S>, ctx: ToolContext) => any;

// Keys live in the global symbol registry so that a plugin bundling its own copy of the
// plugin API still produces metadata this kernel can read.
const TOOLSET_KEY = Symbol.for('testkeeper.toolset');
const TOOLS_KEY = Symbol.for('testkeeper.tools');

type Decorated = { [TOOLSET_KEY]?: ToolsetOptions; [TOOLS_KEY]?: ToolMethodMeta[] };

/** Marks a class as a toolset. The class is also made injectable. */
export function Toolset(options: ToolsetOptions): ClassDecorator {
  return (target) => {
    (target as unknown as Decorated)[TOOLSET_KEY] = options;
    injectable()(target as never);
  };
}

/** Marks a method as a tool handler: `(args, ctx) => result`. Arguments arrive zod-validated. */
export function Tool<S extends z.ZodObject>(options: ToolOptions<S>) {
  return (target: object, method: string | symbol, _descriptor?: TypedPropertyDescriptor<ToolHandler<S>>) => {
    const ctor = target.constructor as unknown as Decorated;
    const own = Object.prototype.hasOwnProperty.call(ctor, TOOLS_KEY) ? ctor[TOOLS_KEY]! : [];
    own.push({ ...(options as unknown as ToolOptions), method: String(method) });
    ctor[TOOLS_KEY] = own;
  };
}

export function readToolsetMeta(cls: Function): { toolset?: ToolsetOptions; tools: ToolMethodMeta[] } {
  const d = cls as unknown as Decorated;
  return { toolset: d[TOOLSET_KEY], tools: d[TOOLS_KEY] ?? [] };
}
