import type { TestCaseView } from '@testkeeper/kernel';
import type { StepPlan } from './actions.js';
import { renderPlaywright, renderPytest } from './render.js';
import { parseStep } from './step-parser.js';

export type GenerationFramework = 'browser' | 'pytest';
export const GENERATION_FRAMEWORKS: readonly GenerationFramework[] = ['browser', 'pytest'];

export interface GeneratedCode {
  code: string;
  /** Step texts the engine could not translate, labelled `Step N` / `Step N (expected)`. */
  untranslated: string[];
  translated: number;
}

/** Each step and each expectation becomes one plan line: translated actions or a gap. */
export function planSteps(tc: Pick<TestCaseView, 'steps'>): StepPlan[] {
  const plans: StepPlan[] = [];
  tc.steps.forEach((s, i) => {
    const n = i + 1;
    if (s.step?.trim()) plans.push({ label: `Step ${n}`, text: s.step.trim(), actions: parseStep(s.step) });
    if (s.expected?.trim()) plans.push({ label: `Step ${n} (expected)`, text: s.expected.trim(), actions: parseStep(s.expected) });
  });
  return plans;
}

/** `test_` plus a Python identifier made from the title. */
export function pytestFunctionName(title: string): string {
  const slug = title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60).replace(/_+$/, '');
  return `test_${slug || 'case'}`;
}

/** The deterministic engine: structured steps in, a runnable test out. */
export function generateDeterministic(tc: Pick<TestCaseView, 'title' | 'steps'>, framework: GenerationFramework): GeneratedCode {
  const plans = planSteps(tc);
  const code = framework === 'pytest' ? renderPytest(tc.title, pytestFunctionName(tc.title), plans) : renderPlaywright(tc.title, plans);
  return {
    code,
    untranslated: plans.filter((p) => !p.actions).map((p) => `${p.label}: ${p.text}`),
    translated: plans.filter((p) => p.actions).length,
  };
}
