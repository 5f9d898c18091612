/**
 * Project keys and URL slugs (pure). A key is at most 10 upper-case letters/digits and unique per
 * owner; a slug is a lower-case, dash-separated form of the name, also unique per owner.
 */

export const KEY_MAX = 10;
export const SLUG_MAX = 60;
const KEY_PATTERN = /^[A-Z0-9]+$/;
/** Used when a name has no Latin letters or digits at all (e.g. only CJK or punctuation). */
const FALLBACK_KEY = 'PROJ';
const FALLBACK_SLUG = 'project';

/** Latin words of a name: diacritics removed, split on anything that is not a letter or digit. */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/**
 * The key a name suggests: the initials of a multi-word name ("Checkout Web App" → "CWA"),
 * otherwise the name's own letters ("Storefront" → "STOREFRONT"), cut to 10 characters.
 */
export function baseKeyFromName(name: string): string {
  const words = nameWords(name).map((w) => w.toUpperCase());
  if (words.length === 0) return FALLBACK_KEY;
  const base = words.length >= 2 ? words.map((w) => w[0]).join('') : words[0];
  return base.slice(0, KEY_MAX);
}

/**
 * `base` if free, otherwise `base` with the smallest numeric suffix (2, 3, ...) that is free,
 * shortening `base` so the result stays within `max` characters. `taken` compares exactly.
 */
export function firstFree(base: string, taken: ReadonlySet<string>, max: number, separator = ''): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `${separator}${n}`;
    if (suffix.length >= max) throw new Error(`no free value for "${base}" within ${max} characters`);
    const candidate = `${trimEnd(base.slice(0, max - suffix.length), separator)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A key derived from the name that is not in `taken` (the owner's keys). */
export function deriveKey(name: string, taken: ReadonlySet<string>): string {
  return firstFree(baseKeyFromName(name), taken, KEY_MAX);
}

/** Upper-cases an explicit key and returns it, or a readable reason it is not acceptable. */
export function checkExplicitKey(key: string): { key: string } | { problem: string } {
  const upper = key.toUpperCase();
  if (upper.length === 0) return { problem: 'key must not be empty' };
  if (upper.length > KEY_MAX) return { problem: `key "${key}" has ${upper.length} characters; the maximum is ${KEY_MAX}` };
  if (!KEY_PATTERN.test(upper)) return { problem: `key "${key}" may contain only letters A-Z and digits 0-9` };
  return { key: upper };
}

/** "Checkout — Web App!" → "checkout-web-app". */
export function baseSlugFromName(name: string): string {
  const slug = trimEnd(nameWords(name).join('-').toLowerCase().slice(0, SLUG_MAX), '-');
  return slug || FALLBACK_SLUG;
}

/** A slug for the name that is not in `taken` (the owner's slugs): "shop", "shop-2", ... */
export function deriveSlug(name: string, taken: ReadonlySet<string>): string {
  return firstFree(baseSlugFromName(name), taken, SLUG_MAX, '-');
}

function trimEnd(value: string, char: string): string {
  if (!char) return value;
  let end = value.length;
  while (end > 0 && value[end - 1] === char) end--;
  return value.slice(0, end);
}
