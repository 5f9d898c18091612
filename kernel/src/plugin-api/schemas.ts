import { z } from 'zod';

/**
 * Input fragments shared by every pack's tools, so the same parameter means the same thing (and
 * lists the same way in tools/list) wherever it appears.
 */

/** A positive integer id; the parameter name says what it identifies. The bound is checked, not listed. */
export const positiveId = z.number().int().refine((n) => n > 0, 'must be a positive integer');

/** `limit`/`offset` of a list tool: pages of at most 100, 50 by default. */
export const paging = {
  limit: z.number().int().min(1).max(100).default(50),
  offset: z.number().int().min(0).default(0),
};
