/**
 * Pull-request pipeline gates (pure). Gates live as top-level boolean keys of a project's
 * `test_frameworks` settings object, next to other settings that must survive every gate update.
 */

export const GATE_KEYS = [
  '_pipeline_run_tests',
  '_pipeline_run_beta',
  '_pipeline_run_ai_review',
  '_pipeline_run_sast',
  '_pipeline_run_sast_verify',
  '_pipeline_run_sast_fixes',
  '_pipeline_run_bola',
  '_pipeline_run_tech_debt',
] as const;
export type GateKey = (typeof GATE_KEYS)[number];
export type Gates = Record<GateKey, boolean>;

/**
 * Gates that spend credits default to off: exactly the three the specification names. SAST verify
 * and SAST fixes default on, but they only act on the findings of a SAST run, so they spend nothing
 * until `_pipeline_run_sast` itself is switched on.
 */
export const CREDIT_GATES: readonly GateKey[] = ['_pipeline_run_ai_review', '_pipeline_run_sast', '_pipeline_run_bola'];

export const isGateKey = (key: string): key is GateKey => (GATE_KEYS as readonly string[]).includes(key);

export const gateDefault = (key: GateKey): boolean => !CREDIT_GATES.includes(key);

/** The keys of `gates` that are not gate keys (empty when all are accepted). */
export function unknownGateKeys(gates: Record<string, unknown>): string[] {
  return Object.keys(gates).filter((k) => !isGateKey(k));
}

/** Parses stored settings; anything that is not a JSON object reads as no settings. */
export function parseSettings(json: string | null | undefined): Record<string, unknown> {
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Every gate with its stored value, or its default when absent or not a boolean. */
export function effectiveGates(settings: Record<string, unknown>): Gates {
  const out = {} as Gates;
  for (const key of GATE_KEYS) {
    const stored = settings[key];
    out[key] = typeof stored === 'boolean' ? stored : gateDefault(key);
  }
  return out;
}

/** A copy of `settings` with the given gates set; every other setting is kept as it was. */
export function withGates(settings: Record<string, unknown>, gates: Partial<Gates>): Record<string, unknown> {
  return { ...settings, ...gates };
}
