/** Small statistics helpers for benchmark samples (milliseconds). */

export function percentile(samples, p) {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const median = (samples) => percentile(samples, 50);

export const mean = (samples) => samples.reduce((a, b) => a + b, 0) / samples.length;

export const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

export const round = (n, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : n);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
