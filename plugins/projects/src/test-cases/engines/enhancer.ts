import type { Step } from '../domain/steps.js';
import { detectIntents } from './intents.js';
import { expectationFor, generateSteps } from './step-generator.js';
import { capitalize, isCovered, normalize, sentences } from './text.js';

export interface EnhanceInput {
  title: string;
  description: string;
  preconditions: string;
  steps: Step[];
}

export interface Enhancement {
  description: string;
  preconditions: string;
  steps: Step[];
  /** What was added, so the caller can say what changed. */
  added: { steps: number; expectations: number; preconditions: number; verification_points: number; description: boolean };
}

const VERIFYING = /^(?:verify|check|confirm|ensure|assert|make sure)\b/i;
const BASE_PRECONDITION = "The application under test is reachable at the project's base URL.";

/**
 * Deterministic enhancement: fills what is missing and never repeats what is there — expectations
 * for steps that have none, preconditions the intents presume, a final verification point per
 * intent, and a description that states what the test proves. Steps are generated only when the
 * case has none.
 */
export function enhanceDeterministic(tc: EnhanceInput): Enhancement {
  const added = { steps: 0, expectations: 0, preconditions: 0, verification_points: 0, description: false };
  const intents = detectIntents(tc.title, tc.description);

  let steps: Step[] = tc.steps.map((s) => ({ ...s }));
  if (steps.length === 0) {
    steps = generateSteps(tc.title, tc.description).steps;
    added.steps = steps.length;
  }
  for (const s of steps) {
    if (!s.expected) {
      s.expected = expectationFor(s.step);
      added.expectations++;
    }
  }

  const known = steps.flatMap((s) => [s.step, s.expected ?? '']);
  for (const intent of intents) {
    if (isCovered(intent.verification, known)) continue;
    steps.push({ step: `Verify that ${intent.verification.replace(/^./, (c) => c.toLowerCase())}`, expected: capitalize(intent.verification) });
    known.push(intent.verification);
    added.verification_points++;
  }
  if (intents.length === 0 && !steps.some((s) => VERIFYING.test(s.step))) {
    steps.push({ step: 'Verify the final state of the application', expected: `The outcome matches "${tc.title}" and no error is shown` });
    added.verification_points++;
  }

  const existing = sentences(tc.preconditions);
  const wanted = [BASE_PRECONDITION, ...intents.flatMap((i) => i.preconditions)];
  const pre = [...existing];
  for (const p of wanted) {
    if (pre.some((e) => normalize(e) === normalize(p)) || isCovered(p, pre)) continue;
    pre.push(p);
    added.preconditions++;
  }
  const preconditions = pre.map((p) => (/[.!?]$/.test(p) ? p : `${p}.`)).join('\n');

  let description = tc.description.trim();
  if (description.length < 40) {
    const checks = steps.filter((s) => s.expected).length;
    const summary = `Verifies that ${tc.title.replace(/^./, (c) => c.toLowerCase()).replace(/[.]$/, '')} works as intended, in ${steps.length} steps with ${checks} checked expectations.`;
    description = description ? `${description.replace(/[.]?$/, '.')} ${summary}` : summary;
    added.description = true;
  }
  return { description, preconditions, steps, added };
}
