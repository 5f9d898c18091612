import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Caller, SamplingChannel, ToolContext } from '../plugin-api/caller.js';
import { ToolError } from '../plugin-api/errors.js';
import { isNotModified, type ToolEnvelope } from '../plugin-api/results.js';
import type { Logger } from '../plugin-api/services.js';
import type { LiveRegistry } from './live-registry.js';
import type { ToolDefinition } from './tool-definition.js';

export interface InvokeOptions {
  caller: Caller;
  /** The transport's id for this call, so logs and an `internal` error's reference match. */
  requestId?: string;
  signal?: AbortSignal;
  progress?: ToolContext['progress'];
  sampling?: SamplingChannel;
}

export interface InvokeOutcome {
  envelope: ToolEnvelope;
  /** False when the tool is unknown or disabled: transports map this to a protocol-level error. */
  found: boolean;
}

/** 12 hex digits (48 random bits). randomUUID draws from a cached entropy pool; randomBytes would cost a syscall per call. */
export const newRequestId = () => randomUUID().replaceAll('-', '').slice(0, 12);

/** Formats zod issues as "field: problem" so a client can fix its call. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? i.path.join('.') : 'arguments';
      return `${where}: ${i.message}`;
    })
    .join('; ');
}

/**
 * The one path from a tool name and raw arguments to a result envelope. Validation errors and
 * ToolErrors become error envelopes; anything else is logged with a reference id and reported as
 * `internal` without internals.
 */
export class Invoker {
  /** Masks known secret values in results (set once the secrets store exists). */
  private scrubber?: { scrub(text: string): string; readonly scrubbing: boolean };

  constructor(
    private readonly registry: LiveRegistry,
    private readonly logger: Logger,
  ) {}

  setScrubber(scrubber: { scrub(text: string): string; readonly scrubbing: boolean }): void {
    this.scrubber = scrubber;
  }

  /** No tool result may carry a secret this process knows, whichever pack produced it. */
  private clean(outcome: InvokeOutcome): InvokeOutcome {
    if (!this.scrubber?.scrubbing) return outcome;
    const text = JSON.stringify(outcome.envelope);
    const masked = this.scrubber.scrub(text);
    return masked === text ? outcome : { found: outcome.found, envelope: JSON.parse(masked) as ToolEnvelope };
  }

  async invoke(name: string, rawArgs: unknown, opts: InvokeOptions): Promise<InvokeOutcome> {
    const requestId = opts.requestId ?? newRequestId();
    const tool = this.registry.get(name);
    if (!tool) {
      return {
        found: false,
        envelope: {
          success: false,
          error: { code: 'not_found', message: `Tool ${name} is not available`, hint: 'List the tools to see the ones this server offers.' },
        },
      };
    }
    const parsed = tool.input.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      return {
        found: true,
        envelope: { success: false, error: { code: 'invalid_argument', message: describeIssues(parsed.error), hint: `See the input schema of ${name}.` } },
      };
    }
    const ctx: ToolContext = {
      caller: opts.caller,
      requestId,
      signal: opts.signal ?? new AbortController().signal,
      progress: opts.progress ?? (async () => {}),
      sampling: opts.sampling,
    };
    return this.clean(await this.run(tool, name, parsed.data, ctx, opts));
  }

  private async run(tool: ToolDefinition, name: string, args: unknown, ctx: ToolContext, opts: InvokeOptions): Promise<InvokeOutcome> {
    const requestId = ctx.requestId;
    try {
      const result = await tool.handler(args, ctx);
      if (isNotModified(result)) return { found: true, envelope: { success: true, result: { not_modified: true, version: result.version } } };
      return { found: true, envelope: { success: true, result } };
    } catch (err) {
      if (err instanceof ToolError) {
        const error: NonNullable<ToolEnvelope['error']> = { code: err.code, message: err.message };
        if (err.hint) error.hint = err.hint;
        if (err.details) Object.assign(error, { details: err.details });
        return { found: true, envelope: { success: false, error } };
      }
      this.logger.error({ err, requestId, tool: name, user: opts.caller.username }, 'tool failed unexpectedly');
      return {
        found: true,
        envelope: {
          success: false,
          error: {
            code: 'internal',
            message: `The server hit an unexpected error (reference ${requestId}).`,
            hint: 'Retry later; if it persists, give the reference to the operator.',
            reference: requestId,
          },
        },
      };
    }
  }
}
