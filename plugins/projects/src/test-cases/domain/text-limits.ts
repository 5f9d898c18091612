import { z } from '@testkeeper/kernel';

/**
 * A string with a length cap that is enforced but not spelled out in the JSON schema: the caps are
 * generous safety limits, and listing them on every field would crowd tools/list.
 */
export const text = (max: number) => z.string().refine((s) => s.length <= max, { message: `at most ${max} characters` });
/** The same, trimmed and non-empty. */
export const line = (max: number) =>
  z
    .string()
    .trim()
    .refine((s) => s.length > 0 && s.length <= max, { message: `1 to ${max} characters` });
