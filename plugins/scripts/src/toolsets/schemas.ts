import { z } from '@testkeeper/kernel';

/** Input pieces shared by this pack's tools. */
/*
 * Limits are checked with refinements, which zod validates but does not copy into the JSON Schema:
 * the tools/list payload stays small (a budget per tool) while bad input still fails with a clear
 * invalid_argument naming the field.
 */
const within = (max: number) => (s: string) => s.length >= 1 && s.length <= max;

/** Ids are positive integers; the parameter name says what they identify. */
export const id = z.number().int().refine((n) => n > 0, 'must be a positive integer');

/** A framework name as given (unknown ones are reported or fall back, per tool). */
export const frameworkName = z.string().refine(within(40), 'must be 1 to 40 characters');

/** A short opaque string (versions, job ids). */
export const token = z.string().refine(within(100), 'must be 1 to 100 characters');

export const paging = {
  limit: z.number().int().min(1).max(100).default(50),
  offset: z.number().int().min(0).default(0),
};

/** Scripts are source files, not blobs: 512 KiB is far above any real test. */
export const MAX_CODE_CHARS = 512 * 1024;

export const code = z.string().refine(within(MAX_CODE_CHARS), `must be 1 to ${MAX_CODE_CHARS} characters`);

export const scriptName = z
  .string()
  .trim()
  .refine(within(200), 'must be 1 to 200 characters (not blank)')
  .refine((s) => !/[\u0000-\u001f]/.test(s), 'must not contain control characters');

export const patchEdit = z.object({
    old_string: z.string().refine((v) => v.length > 0, 'must not be empty'),
    new_string: z.string().refine((v) => v.length <= MAX_CODE_CHARS, `must be at most ${MAX_CODE_CHARS} characters`),
    replace_all: z.boolean().optional(),
  });

export const patch = z.array(patchEdit).refine((edits) => edits.length >= 1 && edits.length <= 100, 'must hold 1 to 100 edits');
