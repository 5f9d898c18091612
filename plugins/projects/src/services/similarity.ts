/**
 * The similar-project check of create_project (pure). A new project is "similar" to an existing one
 * of the same owner when the names are equal after normalization, close by edit distance, share
 * most of their words, or when both main URLs point at the same host.
 */

export type SimilarReason = 'same_name' | 'same_host' | 'similar_name' | 'shared_words';

export interface ExistingProject {
  id: number;
  name: string;
  key: string;
  main_url: string | null;
}

export interface SimilarProject {
  id: number;
  name: string;
  key: string;
  reason: SimilarReason;
}

/** Edit-distance similarity (1 = equal) at or above which two names count as the same project. */
export const NAME_SIMILARITY_MIN = 0.8;
/** Word-set overlap (Jaccard) at or above which two names count as the same project... */
export const WORD_OVERLAP_MIN = 0.6;
/** ...provided they share at least this many words ("Acme Web" vs "Acme Mobile" is not similar). */
export const SHARED_WORDS_MIN = 2;
/** How many similar projects are reported at most. */
export const SIMILAR_MAX = 5;

const STRENGTH: Record<SimilarReason, number> = { same_name: 0, same_host: 1, similar_name: 2, shared_words: 3 };

/** Lower case, Latin diacritics and punctuation removed, single spaces: "  Shop-Front! " → "shop front". */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC') // recompose what is left (kana with voicing marks stay whole)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ')
    .trim();
}

/** Levenshtein distance (two-row dynamic programme). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let curr = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      curr[j] = Math.min(prev[j] + 1, curr[j - 1] + 1, prev[j - 1] + cost);
    }
    [prev, curr] = [curr, prev];
  }
  return prev[b.length];
}

/** 1 - distance / longer length; 1 for two equal strings. */
export function nameSimilarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - levenshtein(a, b) / longer;
}

/** Shared words of two normalized names and their Jaccard overlap. */
export function wordOverlap(a: string, b: string): { shared: number; jaccard: number } {
  const wa = new Set(a.split(' ').filter(Boolean));
  const wb = new Set(b.split(' ').filter(Boolean));
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  const union = wa.size + wb.size - shared;
  return { shared, jaccard: union === 0 ? 0 : shared / union };
}

/** Host (with port) of an http(s) URL, lower case and without a leading "www."; null if none. */
export function urlHost(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const host = new URL(url).host.toLowerCase();
    return host.replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

/** Why `candidate` resembles `existing`, strongest reason first, or null when it does not. */
export function similarityReason(candidate: { name: string; main_url?: string | null }, existing: ExistingProject): SimilarReason | null {
  const a = normalizeName(candidate.name);
  const b = normalizeName(existing.name);
  const compactA = a.replace(/ /g, '');
  const compactB = b.replace(/ /g, '');
  // "Check out" and "Checkout" are the same name: spacing is normalized away too.
  if (compactA === compactB) return 'same_name';
  const host = urlHost(candidate.main_url);
  if (host && host === urlHost(existing.main_url)) return 'same_host';
  if (nameSimilarity(compactA, compactB) >= NAME_SIMILARITY_MIN) return 'similar_name';
  const words = wordOverlap(a, b);
  if (words.shared >= SHARED_WORDS_MIN && words.jaccard >= WORD_OVERLAP_MIN) return 'shared_words';
  return null;
}

/** The owner's projects that resemble the candidate, strongest first, at most SIMILAR_MAX. */
export function findSimilarProjects(
  candidate: { name: string; main_url?: string | null },
  existing: readonly ExistingProject[],
): SimilarProject[] {
  const hits: SimilarProject[] = [];
  for (const p of existing) {
    const reason = similarityReason(candidate, p);
    if (reason) hits.push({ id: p.id, name: p.name, key: p.key, reason });
  }
  hits.sort((x, y) => STRENGTH[x.reason] - STRENGTH[y.reason] || x.id - y.id);
  return hits.slice(0, SIMILAR_MAX);
}
