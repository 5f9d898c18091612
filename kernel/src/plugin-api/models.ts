import type { z } from 'zod';
import type { SamplingChannel } from './caller.js';
import { createExtensionPoint } from './extension-points.js';

/** Which engine produced a result: every AI-assisted result records one. */
export type EngineName = 'deterministic' | 'mcp_sampling' | 'openai_compatible' | (string & {});

export interface ModelTask<T> {
  /** A short task name for logs, e.g. `generate_steps`. */
  task: string;
  system: string;
  prompt: string;
  /** The model's JSON output is validated with this schema; invalid output falls back. */
  schema: z.ZodType<T>;
  /** The deterministic engine: always works, no model needed. */
  fallback: () => T | Promise<T>;
  maxTokens?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The calling client's sampling channel, when it offers one. */
  sampling?: SamplingChannel;
}

export interface ModelOutcome<T> {
  value: T;
  engine: EngineName;
  model?: string;
  /** Why a model was not used or its output was rejected (for transparency). */
  fallback_reason?: string;
}

/** Kernel service (Tokens.Models). */
export interface ModelService {
  run<T>(task: ModelTask<T>): Promise<ModelOutcome<T>>;
}

/** A model provider (Owner: kernel). Contribution id = provider name. */
export interface ModelProvider {
  available(task: { sampling?: SamplingChannel }): boolean;
  complete(req: { system: string; prompt: string; maxTokens: number; timeoutMs: number; signal?: AbortSignal; sampling?: SamplingChannel }): Promise<{ text: string; model: string }>;
}
export const ModelProviders = createExtensionPoint<ModelProvider>('kernel.models');
