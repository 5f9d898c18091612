import type { Step } from '../domain/steps.js';
import { capitalize } from './text.js';

/** A test case found in a document. */
export interface ExtractedCase {
  title: string;
  description: string;
  preconditions: string;
  steps: Step[];
  priority?: string;
  category?: string;
}

interface Draft extends ExtractedCase {
  kind: 'gherkin' | 'section';
  /** Gherkin phase: Given lines are preconditions, Then lines are expectations. */
  phase?: 'given' | 'when' | 'then';
}

const HEADING = /^(#{1,6})\s+(.+?)\s*#*$/;
const NAMED_CASE = /^(?:test\s*case|tc|scenario)\s*[-#]?\s*[\w.-]*\s*[:.)-]\s*(.+)$/i;
const LIST_ITEM = /^\s*(?:[-*•+]|\d+[.)]|[a-z][.)]|\(\d+\))\s+(.+)$/i;
const GHERKIN_SCENARIO = /^\s*(?:Scenario(?: Outline| Template)?|Example)\s*:\s*(.+)$/i;
const GHERKIN_STEP = /^\s*(Given|When|Then|And|But|\*)\s+(.+)$/i;
const FEATURE = /^\s*(?:Feature|Ability|Business Need)\s*:\s*(.+)$/i;
const LABEL = /^\s*(?:\*\*)?(preconditions?|pre-conditions?|given|expected(?: results?)?|result|priority|category|area|module|description|summary|steps?)(?:\*\*)?\s*[:-]\s*(.*)$/i;
const REQUIREMENT = /\b(should|must|shall|has to|needs to|is required to)\b/i;
const OUTCOME = /^(?:the|a|an|it|they|user|users|system|page|app)\b.*\b(should|must|shall|will|is|are)\b/i;
const ARROW = /\s*(?:->|→|=>|\s-\s+expected:?|;\s*expected:?)\s*/i;
const PRIORITY_MARK = /\s*[[(](?:priority[:\s]*)?(p[1-5]|critical|high|medium|low)(?:\s+priority)?[\])]\s*/i;

/** Splits "Click Save -> record stored" (or "…; expected: …") into step and expected. */
function listStep(text: string): Step {
  const parts = text.split(ARROW);
  if (parts.length >= 2 && parts[0]!.trim() && parts.slice(1).join(' ').trim()) {
    return { step: capitalize(parts[0]!.trim()), expected: capitalize(parts.slice(1).join(' ').trim()) };
  }
  return { step: capitalize(text.trim()) };
}

function cleanTitle(raw: string): { title: string; priority?: string } {
  let title = raw.replace(/\*\*|__|`/g, '').trim();
  let priority: string | undefined;
  const m = PRIORITY_MARK.exec(title);
  if (m) {
    const v = m[1]!.toLowerCase();
    priority = v.startsWith('p') ? v.slice(1) : v;
    title = title.replace(PRIORITY_MARK, ' ').trim();
  }
  title = title.replace(/[.:;]+$/, '').trim();
  return { title: title.length > 200 ? `${title.slice(0, 197)}...` : title, priority };
}

/** Markdown table rows → cases, mapping columns by header name. */
function tableCases(lines: string[], category: string): ExtractedCase[] {
  const cells = (l: string) => l.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  const header = cells(lines[0]!).map((h) => h.toLowerCase());
  const col = (...names: RegExp[]) => header.findIndex((h) => names.some((n) => n.test(h)));
  const iTitle = col(/^(test ?case|title|name|scenario|case|summary|requirement)/);
  if (iTitle < 0) return [];
  const iSteps = col(/^steps?$|^actions?$|^procedure|^test steps/);
  const iExpected = col(/^expected/, /^result/);
  const iPre = col(/^pre-?conditions?/);
  const iPrio = col(/^priority/);
  const iCat = col(/^category|^area|^module|^feature/);
  const iDesc = col(/^description|^details/);
  const out: ExtractedCase[] = [];
  for (const line of lines.slice(2)) {
    const row = cells(line);
    const { title, priority } = cleanTitle(row[iTitle] ?? '');
    if (!title) continue;
    const stepTexts = iSteps >= 0 ? splitCell(row[iSteps] ?? '') : [];
    const expectedTexts = iExpected >= 0 ? splitCell(row[iExpected] ?? '') : [];
    let steps: Step[] = stepTexts.map((s, i) => ({ step: capitalize(s), ...(expectedTexts[i] && stepTexts.length === expectedTexts.length ? { expected: capitalize(expectedTexts[i]!) } : {}) }));
    // One expected result for several steps belongs to the last one.
    if (steps.length && expectedTexts.length && stepTexts.length !== expectedTexts.length) steps[steps.length - 1]!.expected = expectedTexts.join(' ');
    if (!steps.length && expectedTexts.length) steps = [{ step: `Perform: ${title}`, expected: expectedTexts.join(' ') }];
    out.push({
      title,
      description: iDesc >= 0 ? (row[iDesc] ?? '') : '',
      preconditions: iPre >= 0 ? (row[iPre] ?? '') : '',
      steps,
      priority: iPrio >= 0 && row[iPrio] ? row[iPrio] : priority,
      category: iCat >= 0 && row[iCat] ? row[iCat] : category || undefined,
    });
  }
  return out;
}

function splitCell(cell: string): string[] {
  return cell
    .split(/<br\s*\/?>|\s*;\s*|\s+(?=\d+[.)]\s)/i)
    .map((s) => s.replace(/^\d+[.)]\s*/, '').trim())
    .filter(Boolean);
}

const isTableSeparator = (l: string | undefined) => !!l && /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$/.test(l);

/**
 * Deterministic extraction of test cases from free text: Gherkin scenarios, markdown tables,
 * headed sections with numbered/bulleted steps (and "Expected:"/"Preconditions:" labels), stand-alone
 * list items, and "should"/"must" requirement sentences. A heading with nothing under it but other
 * headings becomes the category of the cases below it.
 */
export function extractTestCases(text: string): ExtractedCase[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: ExtractedCase[] = [];
  let category = '';
  let current: Draft | null = null;

  const flush = () => {
    const d = current;
    current = null;
    if (!d) return;
    const empty = d.steps.length === 0 && !d.description.trim() && !d.preconditions.trim();
    if (empty && d.kind === 'section') {
      category = d.title; // a container heading
      return;
    }
    const { kind: _k, phase: _p, ...c } = d;
    out.push({ ...c, description: c.description.trim(), preconditions: c.preconditions.trim(), ...(category && !c.category ? { category } : {}) });
  };
  const start = (kind: Draft['kind'], raw: string) => {
    flush();
    const { title, priority } = cleanTitle(raw);
    current = { kind, title, description: '', preconditions: '', steps: [], ...(priority ? { priority } : {}) };
  };
  const addPre = (d: Draft, t: string) => (d.preconditions += (d.preconditions ? '\n' : '') + capitalize(t.trim()));
  const addExpected = (d: Draft, t: string) => {
    const last = d.steps.at(-1);
    if (!last) d.steps.push({ step: `Perform: ${d.title}`, expected: capitalize(t.trim()) });
    // "Then A / And B": both are expectations of the same action.
    else last.expected = last.expected ? `${last.expected}; ${t.trim()}` : capitalize(t.trim());
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (!trimmed) continue;

    if (trimmed.includes('|') && isTableSeparator(lines[i + 1])) {
      flush();
      const block = [line, lines[i + 1]!];
      let j = i + 2;
      while (j < lines.length && lines[j]!.includes('|')) block.push(lines[j++]!);
      out.push(...tableCases(block, category));
      i = j - 1;
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = FEATURE.exec(trimmed))) {
      flush();
      category = cleanTitle(m[1]!).title;
      continue;
    }
    if ((m = GHERKIN_SCENARIO.exec(trimmed))) {
      start('gherkin', m[1]!);
      continue;
    }
    const d = current as Draft | null;
    if (d?.kind === 'gherkin' && (m = GHERKIN_STEP.exec(trimmed))) {
      const kw = m[1]!.toLowerCase();
      const body = m[2]!;
      if (kw === 'given') d.phase = 'given';
      else if (kw === 'when') d.phase = 'when';
      else if (kw === 'then') d.phase = 'then';
      if (d.phase === 'given') addPre(d, body);
      else if (d.phase === 'then') addExpected(d, body);
      else d.steps.push({ step: capitalize(body) });
      continue;
    }
    if ((m = HEADING.exec(trimmed)) || (m = /^(?:\*\*)(.+?)(?:\*\*):?$/.exec(trimmed))) {
      const raw = m[2] ?? m[1]!;
      const named = NAMED_CASE.exec(raw);
      start('section', named ? named[1]! : raw);
      continue;
    }
    if ((m = NAMED_CASE.exec(trimmed)) && !LIST_ITEM.test(trimmed)) {
      start('section', m[1]!);
      continue;
    }
    const label = LABEL.exec(trimmed);
    if (d?.kind === 'section' && label) {
      const key = label[1]!.toLowerCase();
      const value = label[2]!.trim();
      if (key.startsWith('pre') || key === 'given') value && addPre(d, value);
      else if (key.startsWith('expected') || key === 'result') value && addExpected(d, value);
      else if (key === 'priority') d.priority = value || d.priority;
      else if (['category', 'area', 'module'].includes(key)) d.category = value || d.category;
      else if (key === 'description' || key === 'summary') d.description += `${value}\n`;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      if (d) {
        // "- The total should drop by 10%" states the outcome of the step above it.
        if (d.steps.length && OUTCOME.test(item[1]!)) addExpected(d, item[1]!);
        else d.steps.push(listStep(item[1]!));
      } else {
        // A list with no heading above it: each item is a case of its own.
        const { title, priority } = cleanTitle(item[1]!);
        out.push({ title, description: item[1]!.trim(), preconditions: '', steps: [], ...(priority ? { priority } : {}), ...(category ? { category } : {}) });
      }
      continue;
    }
    if (d) {
      d.description += `${trimmed}\n`;
      continue;
    }
    // Prose outside any section: every requirement sentence is a case.
    for (const sentence of trimmed.split(/(?<=[.!?])\s+/)) {
      if (!REQUIREMENT.test(sentence)) continue;
      const { title, priority } = cleanTitle(sentence);
      out.push({ title, description: sentence.trim(), preconditions: '', steps: [], ...(priority ? { priority } : {}), ...(category ? { category } : {}) });
    }
  }
  flush();
  return out.filter((c) => c.title.length > 0);
}
