import type { ModelOutcome, ModelProvider, ModelService, ModelTask } from '../plugin-api/models.js';
import type { Logger } from '../plugin-api/services.js';
import { parseModelJson } from './json-output.js';

export interface NamedProvider {
  name: string;
  provider: ModelProvider;
}

export interface ModelServiceOptions {
  /** Providers in the order they are tried; resolved per call (contributions close after boot). */
  providers: () => NamedProvider[];
  defaultTimeoutMs: number;
  logger: Logger;
  scrub?: (text: string) => string;
}

/**
 * Runs a model task: the first available provider answers, its JSON is validated with the task's
 * zod schema, and anything short of a valid answer (no provider, an error, a timeout, invalid
 * output) falls back to the task's deterministic engine. Cancellation by the caller is not a
 * fallback: it rejects with the abort reason.
 */
export class DefaultModelService implements ModelService {
  constructor(private readonly opts: ModelServiceOptions) {}

  async run<T>(task: ModelTask<T>): Promise<ModelOutcome<T>> {
    const reasons: string[] = [];
    const timeoutMs = task.timeoutMs ?? this.opts.defaultTimeoutMs;
    for (const { name, provider } of this.opts.providers()) {
      task.signal?.throwIfAborted();
      if (!provider.available({ sampling: task.sampling })) continue;
      try {
        const answer = await withTimeout(
          provider.complete({
            system: task.system,
            prompt: task.prompt,
            maxTokens: task.maxTokens ?? 2000,
            timeoutMs,
            signal: task.signal,
            sampling: task.sampling,
          }),
          timeoutMs,
          task.signal,
        );
        const parsed = task.schema.safeParse(parseModelJson(answer.text));
        if (parsed.success) return { value: parsed.data, engine: name, model: answer.model };
        reasons.push(`${name}: output did not match the expected shape (${parsed.error.issues[0]?.path.join('.') || 'root'}: ${parsed.error.issues[0]?.message})`);
      } catch (err) {
        task.signal?.throwIfAborted();
        const message = err instanceof TimeoutError || (err as Error).name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : (err as Error).message;
        reasons.push(`${name}: ${this.opts.scrub ? this.opts.scrub(message) : message}`);
      }
    }
    if (reasons.length) this.opts.logger.warn({ task: task.task, reasons }, 'model output not used; deterministic engine answered');
    const value = await task.fallback();
    return {
      value,
      engine: 'deterministic',
      ...(reasons.length ? { fallback_reason: reasons.join('; ') } : { fallback_reason: 'no model is configured or offered by the client' }),
    };
  }
}

class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Races work against a deadline and the caller's signal (a provider may ignore its signal). */
function withTimeout<T>(work: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), ms);
    const onAbort = () => reject(signal!.reason ?? new Error('cancelled'));
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}
