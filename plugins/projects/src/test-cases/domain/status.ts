import { invalidArgument } from '@testkeeper/kernel';

/**
 * Test case lifecycle (SPEC leaves the values to us):
 * draft (new or imported, not reviewed) → ready (reviewed, may be automated) → active (automated and
 * run regularly) → deprecated (kept for history, excluded from planning). Any move is allowed.
 */
export const STATUSES = ['draft', 'ready', 'active', 'deprecated'] as const;
export type Status = (typeof STATUSES)[number];
export const DEFAULT_STATUS: Status = 'draft';

export function normalizeStatus(value: string): Status {
  const word = value.trim().toLowerCase();
  if ((STATUSES as readonly string[]).includes(word)) return word as Status;
  throw invalidArgument(`status ${JSON.stringify(value)} is not accepted`, `Use one of ${STATUSES.join(', ')}.`, { accepted: [...STATUSES] });
}
