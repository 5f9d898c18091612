/**
 * The patch engine (SPEC "Patch rules"): a pure function. Edits apply in order, each to the output of
 * the previous one; the patch applies as a whole or not at all. An anchor must occur exactly once
 * unless `replace_all` is set: an ambiguous or missing anchor is rejected, never guessed.
 */
export interface PatchEdit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export type PatchFailureReason = 'empty_anchor' | 'not_found' | 'ambiguous';

export interface PatchFailure {
  ok: false;
  /** 0-based index of the edit that failed. */
  index: number;
  reason: PatchFailureReason;
  /** How often the anchor occurred (overlapping occurrences counted). */
  occurrences: number;
  message: string;
}

export interface PatchSuccess {
  ok: true;
  code: string;
  /** Replacements made by each edit. */
  replacements: number[];
}

export type PatchOutcome = PatchSuccess | PatchFailure;

/** Every start position of `needle` in `haystack`, overlapping ones included. */
export function countOccurrences(haystack: string, needle: string): number {
  if (needle.length === 0) return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

/** Left-to-right, non-overlapping replacement; no `$` pattern expansion (unlike String.replace). */
function replaceEvery(haystack: string, needle: string, replacement: string): { text: string; count: number } {
  const parts = haystack.split(needle);
  return { text: parts.join(replacement), count: parts.length - 1 };
}

export function applyPatch(code: string, edits: readonly PatchEdit[]): PatchOutcome {
  let current = code;
  const replacements: number[] = [];
  for (const [index, edit] of edits.entries()) {
    const where = `patch[${index}]`;
    if (edit.old_string.length === 0) {
      return fail(index, 'empty_anchor', 0, `${where}: old_string is empty; give text that occurs exactly once in the script`);
    }
    const occurrences = countOccurrences(current, edit.old_string);
    if (occurrences === 0) {
      const after = index > 0 ? ' (after the earlier edits of this patch were applied)' : '';
      return fail(index, 'not_found', 0, `${where}: old_string was not found in the script${after}`);
    }
    if (edit.replace_all) {
      const { text, count } = replaceEvery(current, edit.old_string, edit.new_string);
      current = text;
      replacements.push(count);
      continue;
    }
    if (occurrences > 1) {
      return fail(
        index,
        'ambiguous',
        occurrences,
        `${where}: old_string occurs ${occurrences} times; include more surrounding text so it is unique, or set replace_all`,
      );
    }
    const at = current.indexOf(edit.old_string);
    current = current.slice(0, at) + edit.new_string + current.slice(at + edit.old_string.length);
    replacements.push(1);
  }
  return { ok: true, code: current, replacements };
}

function fail(index: number, reason: PatchFailureReason, occurrences: number, message: string): PatchFailure {
  return { ok: false, index, reason, occurrences, message };
}
