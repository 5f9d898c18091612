import { invalidArgument, z } from '@testkeeper/kernel';
import { line, text } from './text-limits.js';

/** One structured step: what to do, what should happen, and optionally a mobile selector. */
export interface Step {
  step: string;
  expected?: string;
  /** Android resource id of the target element (mobile automation). */
  resource_id?: string;
}

export const stepSchema = z
  .object({
    step: line(2000),
    expected: text(2000).optional(),
    resource_id: line(300).optional(),
  })
  .strict();

/** The same shape, lenient about extra keys: used to read model output, which often adds some. */
export const modelStepSchema = z.object({ step: line(2000), expected: text(2000).optional(), resource_id: line(300).optional() });

export const MAX_STEPS = 100;
export const stepsSchema = z.array(stepSchema).refine((a) => a.length <= MAX_STEPS, { message: `at most ${MAX_STEPS} steps` });

/**
 * A step's mobile selector: an explicit `resource_id`, or the target's visible text quoted in the
 * step (`Tap "Sign in"`). Returns null when the step names no target.
 */
export function mobileSelector(step: Step): { resource_id: string } | { text: string } | null {
  if (step.resource_id) return { resource_id: step.resource_id };
  const quoted = /["“]([^"”]{1,200})["”]/.exec(step.step);
  return quoted ? { text: quoted[1]! } : null;
}

/** Drops empty `expected` values so stored steps stay compact. */
export function cleanSteps(steps: Step[]): Step[] {
  return steps.map((s) => {
    const out: Step = { step: s.step.trim() };
    if (s.expected && s.expected.trim()) out.expected = s.expected.trim();
    if (s.resource_id) out.resource_id = s.resource_id.trim();
    return out;
  });
}

/** Validates steps that arrive as loose JSON (update_test_case `steps` value). */
export function parseSteps(value: unknown): Step[] {
  const parsed = stepsSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw invalidArgument(
      `steps.${first.path.join('.')}: ${first.message}`,
      `Give steps as an array (max ${MAX_STEPS}) of {step, expected?, resource_id?}, or a plain string for free-text instructions.`,
    );
  }
  return cleanSteps(parsed.data);
}

/** Tags: trimmed, lower-cased, unique, in first-seen order. */
export function normalizeTags(tags: string[]): string[] {
  const seen = new Set<string>();
  for (const t of tags) {
    const v = t.trim().toLowerCase();
    if (v) seen.add(v);
  }
  return [...seen];
}
