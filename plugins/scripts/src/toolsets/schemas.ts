import { z } from '@testkeeper/kernel';

/** Input pieces shared by this pack's tools. */
/*
 * Limits are checked with refinements, which zod validates but does not copy into the JSON Schema:
 * the tools/list payload stays small (a budget per tool) while bad input still fails with a clear
 * invalid_argument naming the field.
 */
const within = (max: number) => (s: string) => s.length >= 1 && s.length <= max;

/** Ids and paging are the plugin API's shared fragments. */
export { positiveId as id, paging } from '@testkeeper/kernel';

/** A framework name as given (unknown ones are reported or fall back, per tool). */
export const frameworkName = z.string().refine(within(40), 'must be 1 to 40 characters');

/** A short opaque string (versions, job ids). */
export const token = z.string().refine(within(100), 'must be 1 to 100 characters');

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
