/** Small text helpers shared by the deterministic engines. */

/** Lower-case words only, for duplicate checks ("Click Save." ≈ "click save"). */
export function normalize(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Splits prose into sentences and list items; keeps each piece's own words. */
export function sentences(text: string): string[] {
  return text
    .split(/\r?\n+|(?<=[.!?])\s+(?=[A-Z0-9"“])|;\s+|\s+(?:and then|then)\s+/)
    .map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)]|[a-z][.)])\s+/i, '').replace(/[.!]+$/, '').trim())
    .filter((s) => s.length > 2);
}

export function capitalize(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** The first quoted value in the text ("…", '…' or “…”). */
export function firstQuoted(text: string): string | null {
  const m = /["“']([^"”']{1,120})["”']/.exec(text);
  return m ? m[1]! : null;
}

/** The first URL or absolute path (`/login`) in the text. */
export function firstLocation(text: string): string | null {
  const m = /\bhttps?:\/\/[^\s"')]+|(?<![\w/])\/[a-z0-9][\w\-/]*/i.exec(text);
  return m ? m[0]!.replace(/[.,;]+$/, '') : null;
}

/** True when most of `candidate`'s words already occur in one of `existing`. */
const FILLER = new Set(['should', 'must', 'will', 'that', 'with', 'this', 'then', 'shown', 'displayed', 'visible', 'there', 'have', 'when', 'after', 'before', 'user']);

export function isCovered(candidate: string, existing: string[]): boolean {
  const words = normalize(candidate).split(' ').filter((w) => w.length > 3 && !FILLER.has(w));
  if (words.length === 0) return true;
  return existing.some((e) => {
    const have = new Set(normalize(e).split(' '));
    const hits = words.filter((w) => have.has(w)).length;
    return hits / words.length >= 0.7;
  });
}
