import type { Step } from '../domain/steps.js';
import { detectIntents } from './intents.js';
import { capitalize, isCovered, normalize, sentences } from './text.js';

const MODAL = /\b(should|must|will|expect(?:s|ed)? to|is expected to)\b/i;
const VERIFY = /^(?:verify|check|confirm|ensure|assert|make sure|expect)(?:\s+that)?\s+/i;
const ACTION = /^(?:click|press|tap|select|choose|toggle|enter|type|fill|input|provide|write|open|navigate|go|visit|browse|load|launch|start|upload|attach|submit|save|send|confirm|delete|remove|wait|scroll|add|create|edit|update|change|log|sign|search|drag|hover|close|switch|set|clear|download|reload|refresh|copy|paste|run|use)\b/i;

/** An expectation for an action step, from its verb. */
export function expectationFor(action: string): string {
  const a = action.trim();
  const obj = a.replace(/^\S+\s+/, '').replace(/^(?:on|the|a|an)\s+/i, '');
  if (/^(click|press|tap|select|choose|toggle|check)\b/i.test(a)) return `The app responds to "${obj}" as intended, with no error shown`;
  if (/^(enter|type|fill|input|provide|write)\b/i.test(a)) return 'The field shows the entered value and no validation error';
  if (/^(open|navigate|go|visit|browse|load|launch|start)\b/i.test(a)) return `${capitalize(obj)} loads without errors`;
  if (/^(upload|attach)\b/i.test(a)) return 'The file is accepted and listed';
  if (/^(submit|save|send|confirm)\b/i.test(a)) return 'A success message is shown and the data is kept';
  if (/^(delete|remove)\b/i.test(a)) return `${capitalize(obj)} is removed`;
  if (/^(wait)\b/i.test(a)) return 'The page finishes loading';
  if (/^(scroll)\b/i.test(a)) return 'The requested part of the page is visible';
  return 'The step completes without errors';
}

/**
 * One sentence as a step with its expectation. "Click Export and a CSV file should be downloaded"
 * splits at the last conjunction before the modal verb; a bare requirement ("An error should be
 * shown") becomes a check.
 */
export function sentenceToStep(sentence: string): Step {
  const s = sentence.trim();
  if (VERIFY.test(s)) {
    const claim = s.replace(VERIFY, '');
    return { step: `Check that ${claim}`, expected: capitalize(claim) };
  }
  const modal = MODAL.exec(s);
  if (modal) {
    const before = s.slice(0, modal.index);
    const joins = [...before.matchAll(/,\s*(?:and\s+|so\s+(?:that\s+)?|then\s+)?|\s+(?:and|so that|so|then)\s+/gi)];
    const cut = joins.at(-1);
    if (cut && ACTION.test(s) && cut.index! > 0) {
      return { step: capitalize(s.slice(0, cut.index).trim()), expected: capitalize(s.slice(cut.index! + cut[0].length).trim()) };
    }
    return { step: `Verify the requirement: ${s.replace(/^./, (c) => c.toLowerCase())}`, expected: capitalize(s) };
  }
  return { step: capitalize(s), expected: expectationFor(s) };
}

/** A description written as a procedure: two or more sentences that start with an action verb. */
function isProcedure(described: string[]): boolean {
  return described.filter((s) => ACTION.test(s)).length >= 2;
}

export interface GeneratedSteps {
  steps: Step[];
  preconditions: string[];
}

/**
 * Deterministic step generation: recognized intents (log in, sign up, search, forms, navigation,
 * cart, checkout, create/edit/delete) become their proven step sequences; requirement sentences
 * that the intents do not already cover are added as checks. Without any intent, each sentence of
 * the description becomes a step with an expectation.
 */
export function generateSteps(title: string, description: string): GeneratedSteps {
  const described = sentences(description);
  // The author's own procedure is more specific than any template: follow it.
  const intents = isProcedure(described) ? [] : detectIntents(title, description);
  const steps: Step[] = [];
  const preconditions: string[] = [];
  for (const intent of intents) {
    for (const step of intent.steps) if (!steps.some((s) => normalize(s.step) === normalize(step.step))) steps.push(step);
    for (const p of intent.preconditions) if (!preconditions.includes(p)) preconditions.push(p);
  }
  if (intents.length === 0) {
    for (const s of described) steps.push(sentenceToStep(s));
    if (steps.length === 0) {
      steps.push(
        { step: `Open the part of the application that handles: ${title}`, expected: 'It loads without errors' },
        { step: `Carry out "${title}" with typical valid input`, expected: 'The action completes and a confirmation or result is shown' },
        { step: 'Check the result against the acceptance criteria', expected: `The outcome matches "${title}"` },
      );
    }
  } else {
    // Requirements stated in the text that the intent steps do not already check.
    for (const s of described) {
      if (!/\b(should|must|expect|verify|ensure|confirm)\b/i.test(s)) continue;
      const step = sentenceToStep(s);
      const known = steps.flatMap((x) => [x.step, x.expected ?? '']);
      if (!isCovered(step.expected ?? step.step, known)) steps.push(step);
    }
  }
  return { steps, preconditions };
}
