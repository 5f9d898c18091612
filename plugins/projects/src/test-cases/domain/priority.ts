import { invalidArgument } from '@testkeeper/kernel';

/** Stored priority words, most urgent first. */
export const PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** 1 = critical … 5 = lowest; 4 and 5 both read as `low` (four words for five numbers). */
const BY_NUMBER: Record<number, Priority> = { 1: 'critical', 2: 'high', 3: 'medium', 4: 'low', 5: 'low' };

export const PRIORITY_FORMS = 'an integer 1-5 (1 = critical, 2 = high, 3 = medium, 4-5 = low) or one of critical, high, medium, low';

/** Normalizes a `priority` argument; anything else is rejected with the accepted forms. */
export function normalizePriority(value: number | string): Priority {
  if (typeof value === 'number') {
    const p = Number.isInteger(value) ? BY_NUMBER[value] : undefined;
    if (p) return p;
  } else {
    const word = value.trim().toLowerCase();
    if ((PRIORITIES as readonly string[]).includes(word)) return word as Priority;
    if (/^[1-5]$/.test(word)) return BY_NUMBER[Number(word)]!;
  }
  throw invalidArgument(`priority ${JSON.stringify(value)} is not accepted`, `Use ${PRIORITY_FORMS}.`, { accepted: [1, 2, 3, 4, 5, ...PRIORITIES] });
}
