import { z, type ModelService, type ModelOutcome, type ToolContext } from '@testkeeper/kernel';
import { modelStepSchema as stepSchema, type Step } from '../domain/steps.js';
import { enhanceDeterministic, type EnhanceInput, type Enhancement } from './enhancer.js';
import { generateSteps, type GeneratedSteps } from './step-generator.js';

const SYSTEM =
  'You are a senior QA engineer. Answer with JSON only, no prose. Steps are concrete user actions; ' +
  'each has an observable expected result. Never invent credentials or URLs.';

const generatedSchema = z.object({
  steps: z.array(stepSchema).min(1).max(40),
  preconditions: z.array(z.string().min(1).max(500)).max(10).default([]),
});

/** Detailed steps for a new test case: a model when one is available, else the deterministic engine. */
export function generateStepsTask(models: ModelService, ctx: ToolContext, title: string, description: string): Promise<ModelOutcome<GeneratedSteps>> {
  return models.run({
    task: 'generate_steps',
    system: SYSTEM,
    prompt:
      `Write the detailed steps of this manual test case.\nTitle: ${title}\nDescription: ${description || '(none)'}\n` +
      'Return {"steps":[{"step":"...","expected":"..."}],"preconditions":["..."]}.',
    schema: generatedSchema,
    fallback: () => generateSteps(title, description),
    sampling: ctx.sampling,
    signal: ctx.signal,
  });
}

const enhancedSchema = z.object({
  description: z.string().min(1).max(20000),
  preconditions: z.string().max(5000).default(''),
  steps: z.array(stepSchema).min(1).max(100),
});

/** An improved test case: expectations, preconditions, verification points, a clearer description. */
export async function enhanceTask(models: ModelService, ctx: ToolContext, tc: EnhanceInput): Promise<ModelOutcome<Enhancement>> {
  const out = await models.run<Enhancement | z.output<typeof enhancedSchema>>({
    task: 'enhance_test_case',
    system: SYSTEM,
    prompt:
      'Improve this test case: add missing expected results, preconditions and verification points, and make the ' +
      'description state what the test proves. Keep every existing step (you may refine its wording) and do not ' +
      `duplicate anything.\n${JSON.stringify(tc)}\nReturn {"description":"...","preconditions":"...","steps":[{"step":"...","expected":"..."}]}.`,
    schema: enhancedSchema,
    fallback: () => enhanceDeterministic(tc),
    sampling: ctx.sampling,
    signal: ctx.signal,
  });
  if ('added' in out.value) return out as ModelOutcome<Enhancement>;
  // A model answer: drop repeated steps and describe what changed relative to the input.
  const steps = dedupeSteps(out.value.steps);
  return {
    ...out,
    value: {
      description: out.value.description,
      preconditions: out.value.preconditions,
      steps,
      added: {
        steps: Math.max(0, steps.length - tc.steps.length),
        expectations: Math.max(0, steps.filter((s) => s.expected).length - tc.steps.filter((s) => s.expected).length),
        preconditions: out.value.preconditions && out.value.preconditions !== tc.preconditions ? 1 : 0,
        verification_points: 0,
        description: out.value.description !== tc.description,
      },
    },
  };
}

function dedupeSteps(steps: Step[]): Step[] {
  const seen = new Set<string>();
  return steps.filter((s) => {
    const k = s.step.toLowerCase().replace(/\W+/g, ' ').trim();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
