import { z, type ModelOutcome, type ModelService, type ToolContext } from '@testkeeper/kernel';
import { modelStepSchema as stepSchema } from '../domain/steps.js';
import { extractTestCases, type ExtractedCase } from './document-extractor.js';

/** How much of a document goes into a model prompt; the deterministic engine reads all of it. */
const PROMPT_CHARS = 24_000;

const schema = z.object({
  test_cases: z
    .array(
      z.object({
        title: z.string().trim().min(1).max(500),
        description: z.string().max(20000).default(''),
        preconditions: z.string().max(5000).default(''),
        steps: z.array(stepSchema).max(100).default([]),
        priority: z.union([z.string(), z.number()]).optional(),
        category: z.string().max(100).optional(),
      }),
    )
    .max(500),
});

/** Test cases in a document: a model when one is available and the text fits, else the extractor. */
export async function extractTask(models: ModelService, ctx: ToolContext, text: string): Promise<ModelOutcome<ExtractedCase[]>> {
  const fallback = () => ({ test_cases: extractTestCases(text) });
  if (text.length > PROMPT_CHARS) {
    return { value: fallback().test_cases, engine: 'deterministic', fallback_reason: `the document is longer than ${PROMPT_CHARS} characters` };
  }
  const out = await models.run({
    task: 'import_document',
    system: 'You extract manual test cases from documents. Answer with JSON only. Keep the wording of the document; do not invent steps the text does not give.',
    prompt: `Extract every test case or testable requirement from this document.\nReturn {"test_cases":[{"title":"...","description":"...","preconditions":"...","steps":[{"step":"...","expected":"..."}],"priority":"high|medium|low","category":"..."}]}.\n---\n${text}`,
    schema,
    fallback,
    maxTokens: 4000,
    sampling: ctx.sampling,
    signal: ctx.signal,
  });
  if (out.engine !== 'deterministic' && out.value.test_cases.length === 0) {
    // A model that finds nothing is not trusted over the extractor.
    return { value: fallback().test_cases, engine: 'deterministic', fallback_reason: `${out.engine}: the model found no test cases` };
  }
  return { ...out, value: out.value.test_cases.map((c) => ({ ...c, priority: c.priority === undefined ? undefined : String(c.priority) })) };
}
