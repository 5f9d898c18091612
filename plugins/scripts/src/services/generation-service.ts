import { randomUUID } from 'node:crypto';
import {
  inject,
  injectable,
  Tokens,
  ToolError,
  z,
  type Caller,
  type JobControl,
  type JobQueue,
  type JobRecord,
  type Logger,
  type SamplingChannel,
  type TestCaseView,
} from '@testkeeper/kernel';
import { checkCode, type CodeCheck } from '../generation/code-check.js';
import { generateDeterministic, type GenerationFramework } from '../generation/deterministic.js';
import { PendingStore, toPendingView } from './pending-store.js';
import { OptionalServices } from './optional-services.js';
import { ScriptStore, toScriptView } from './script-store.js';

export const GENERATION_JOB = 'scripts.generate';
export type GenerationMode = 'propose' | 'save';

export interface GenerationPayload {
  test_case_id: number;
  framework: GenerationFramework;
  mode: GenerationMode;
  caller: Pick<Caller, 'userId' | 'username' | 'via'>;
  /** Finds the requesting client's sampling channel when the job runs in the same process. */
  sampling_handoff?: string;
}

export interface GenerationResult {
  mode: GenerationMode;
  framework: GenerationFramework;
  engine: string;
  model?: string;
  fallback_reason?: string;
  untranslated: string[];
  check: { ok: boolean; checker: string };
  script?: ReturnType<typeof toScriptView>;
  pending_test?: ReturnType<typeof toPendingView>;
}

const modelOutput = z.object({ code: z.string().min(1).max(200_000), untranslated: z.array(z.string()).default([]) });

const SYSTEM = [
  'You write one automated end-to-end test from a manual test case.',
  'Answer with JSON only: {"code": "<the whole test file>", "untranslated": ["<steps you could not automate>"]}.',
  'Browser: a Playwright Test file in TypeScript using relative URLs (baseURL comes from the config).',
  'pytest: a pytest-playwright test using the page fixture and relative URLs.',
  'Prefer getByRole/getByLabel/getByText locators. Keep every expectation as an assertion.',
].join(' ');

/** Runs generation jobs: read the test case, write code (model or deterministic), check it, store it. */
@injectable()
export class GenerationService {
  private readonly sampling = new Map<string, SamplingChannel>();

  constructor(
    private readonly scripts: ScriptStore,
    private readonly pending: PendingStore,
    private readonly optional: OptionalServices,
    @inject(Tokens.Jobs) private readonly jobs: JobQueue,
    @inject(Tokens.Logger) private readonly logger: Logger,
  ) {}

  /** Called in onInit: one generation at a time per user (SPEC §8), queued, never in parallel. */
  defineJobs(): void {
    this.jobs.define<GenerationPayload, GenerationResult>(GENERATION_JOB, (job, control) => this.run(job, control), {
      concurrencyKey: (_payload, ownerId) => `user:${ownerId}`,
      timeoutMs: 5 * 60_000,
    });
  }

  async enqueue(payload: Omit<GenerationPayload, 'sampling_handoff'>, sampling: SamplingChannel | undefined): Promise<JobRecord<GenerationPayload>> {
    let handoff: string | undefined;
    if (sampling) {
      handoff = randomUUID();
      this.sampling.set(handoff, sampling);
      // A job that never runs here must not pin the channel.
      setTimeout(() => this.sampling.delete(handoff!), 10 * 60_000).unref();
    }
    return this.jobs.enqueue<GenerationPayload>(GENERATION_JOB, { ...payload, ...(handoff ? { sampling_handoff: handoff } : {}) }, payload.caller.userId);
  }

  private async run(job: JobRecord<GenerationPayload, GenerationResult>, control: JobControl): Promise<GenerationResult> {
    const { framework, mode } = job.payload;
    const caller: Caller = { ...job.payload.caller };
    const reader = this.optional.testCases;
    if (!reader) throw new ToolError('unavailable', 'test cases are not available on this server');
    await control.progress(1, 4, 'reading the test case');
    const tc = await reader.requireTestCase(caller, job.payload.test_case_id);
    requireSteps(tc);

    await control.progress(2, 4, 'generating code');
    const det = generateDeterministic(tc, framework);
    const sampling = job.payload.sampling_handoff ? this.sampling.get(job.payload.sampling_handoff) : undefined;
    let chosen = { code: det.code, untranslated: det.untranslated, engine: 'deterministic', model: undefined as string | undefined, fallback_reason: undefined as string | undefined };
    if (this.optional.models) {
      const outcome = await this.optional.models.run({
        task: 'generate_test_code',
        system: SYSTEM,
        prompt: promptFor(tc, framework),
        schema: modelOutput,
        fallback: () => ({ code: det.code, untranslated: det.untranslated }),
        maxTokens: 4000,
        signal: control.signal,
        sampling,
      });
      chosen = { ...chosen, engine: outcome.engine, model: outcome.model, fallback_reason: outcome.fallback_reason, ...outcome.value };
    } else {
      chosen.fallback_reason = 'no model service on this server';
    }
    if (job.payload.sampling_handoff) this.sampling.delete(job.payload.sampling_handoff);

    await control.progress(3, 4, 'checking the code');
    let check = await checkCode(framework, chosen.code);
    if (!check.ok && chosen.engine !== 'deterministic') {
      // A model's code that does not compile is not handed out: the deterministic engine answers.
      this.logger.warn({ job: job.id, errors: check.errors }, 'model code failed its syntax check; using the deterministic engine');
      chosen = { code: det.code, untranslated: det.untranslated, engine: 'deterministic', model: undefined, fallback_reason: `${chosen.engine} output did not compile: ${check.errors[0] ?? ''}` };
      check = await checkCode(framework, chosen.code);
    }
    if (!check.ok) {
      this.logger.error({ job: job.id, errors: check.errors }, 'deterministic code failed its syntax check');
      throw new ToolError('internal', `the generated code did not pass its syntax check (${check.errors[0] ?? 'unknown error'})`);
    }

    await control.progress(4, 4, mode === 'save' ? 'saving the script' : 'saving the proposal');
    const name = tc.title.slice(0, 200);
    const common: GenerationResult = {
      mode,
      framework,
      engine: chosen.engine,
      ...(chosen.model ? { model: chosen.model } : {}),
      ...(chosen.fallback_reason ? { fallback_reason: chosen.fallback_reason } : {}),
      untranslated: chosen.untranslated,
      check: { ok: check.ok, checker: check.checker },
    };
    if (mode === 'save') {
      const row = await this.scripts.create({ owner_id: caller.userId, project_id: tc.project_id, test_case_id: tc.id, name, framework, code: chosen.code });
      return { ...common, script: toScriptView(row) };
    }
    const row = await this.pending.create({
      owner_id: caller.userId,
      project_id: tc.project_id,
      test_case_id: tc.id,
      name,
      framework,
      code: chosen.code,
      engine: chosen.engine,
      untranslated: chosen.untranslated,
    });
    return { ...common, pending_test: toPendingView(row, true) };
  }
}

export function requireSteps(tc: TestCaseView): void {
  if (!tc.steps?.some((s) => s.step?.trim() || s.expected?.trim())) {
    throw new ToolError('invalid_argument', `test case ${tc.id} has no structured steps to generate from`, 'Add steps ([{step, expected}]) with update_test_case first.');
  }
}

function promptFor(tc: TestCaseView, framework: GenerationFramework): string {
  return JSON.stringify({
    framework,
    title: tc.title,
    description: tc.description,
    preconditions: tc.preconditions,
    steps: tc.steps.map((s) => ({ step: s.step, expected: s.expected ?? '' })),
  });
}
