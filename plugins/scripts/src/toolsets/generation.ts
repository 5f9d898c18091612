import {
  notFound,
  Tool,
  Toolset,
  unavailable,
  inject,
  Tokens,
  invalidArgument,
  z,
  type JobQueue,
  type JobRecord,
  type ToolContext,
} from '@testkeeper/kernel';
import { GENERATION_FRAMEWORKS } from '../generation/deterministic.js';
import { GENERATION_JOB, GenerationService, requireSteps, type GenerationPayload, type GenerationResult } from '../services/generation-service.js';
import { OptionalServices } from '../services/optional-services.js';
import { frameworkName, id, token } from './schemas.js';

/** Job states as check_generation_status reports them (SPEC §3). */
const STATUS: Record<string, string> = {
  queued: 'queued',
  running: 'running',
  passed: 'completed',
  failed: 'failed',
  error: 'failed',
  cancelled: 'failed',
  timed_out: 'timed_out',
};

function statusView(job: JobRecord<GenerationPayload, GenerationResult>) {
  const status = STATUS[job.state] ?? 'failed';
  const done = ['completed', 'failed', 'timed_out'].includes(status);
  return {
    job_id: job.id,
    status,
    test_case_id: job.payload.test_case_id,
    framework: job.payload.framework,
    mode: job.payload.mode,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    ...(job.progress && !done ? { progress: job.progress } : {}),
    ...(status === 'completed' && job.result ? job.result : {}),
    ...(status === 'failed' || status === 'timed_out' ? { reason: job.error ?? 'unknown' } : {}),
    ...(done ? {} : { next: 'Poll check_generation_status with this job_id.' }),
  };
}

@Toolset({ id: 'generation', title: 'Code generation', description: 'Generate test code from test cases as background jobs' })
export class GenerationToolset {
  constructor(
    private readonly generation: GenerationService,
    private readonly optional: OptionalServices,
    @inject(Tokens.Jobs) private readonly jobs: JobQueue,
  ) {}

  @Tool({
    name: 'generate_code_for_test_case',
    description: 'Generate a browser or pytest test from a test case as a background job.',
    input: z.object({
      test_case_id: id,
      framework: frameworkName.default('browser'),
      mode: z.enum(['propose', 'save']).default('propose'),
      wait_seconds: z.number().int().min(0).max(25).default(5),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async generate(args: { test_case_id: number; framework: string; mode: 'propose' | 'save'; wait_seconds: number }, ctx: ToolContext) {
    if (!(GENERATION_FRAMEWORKS as readonly string[]).includes(args.framework)) {
      throw invalidArgument(`code generation does not support framework "${args.framework}"`, `Use one of: ${GENERATION_FRAMEWORKS.join(', ')}.`);
    }
    const reader = this.optional.testCases;
    if (!reader) throw unavailable('test cases are not available on this server');
    const tc = await reader.requireTestCase(ctx.caller, args.test_case_id);
    requireSteps(tc);
    const { userId, username, via } = ctx.caller;
    const job = await this.generation.enqueue(
      { test_case_id: tc.id, framework: args.framework as GenerationPayload['framework'], mode: args.mode, caller: { userId, username, via } },
      ctx.sampling,
    );
    return statusView(await this.waitBriefly(job.id, userId, args.wait_seconds * 1000, ctx));
  }

  @Tool({
    name: 'check_generation_status',
    description: 'Poll a generation job: queued, running, completed, failed or timed_out.',
    input: z.object({ job_id: token }),
    annotations: { readOnlyHint: true },
  })
  async status(args: { job_id: string }, ctx: ToolContext) {
    const job = await this.jobs.get<GenerationPayload, GenerationResult>(args.job_id, ctx.caller.userId);
    if (!job || job.kind !== GENERATION_JOB) throw notFound('generation job', args.job_id, 'Use the job_id returned by generate_code_for_test_case.');
    return statusView(job);
  }

  /**
   * Waits for the job up to `ms`, forwarding its progress to the caller (a no-op unless it sent a
   * progressToken): live from this process's queue, or as polled from the job row otherwise.
   */
  private async waitBriefly(jobId: string, ownerId: number, ms: number, ctx: ToolContext) {
    const deadline = Date.now() + ms;
    let last = -Infinity;
    // Live events and polled rows can arrive out of order: only forward progress that grew.
    const forward = (p: { progress: number; total?: number; message?: string }) => {
      if (p.progress <= last) return;
      last = p.progress;
      void ctx.progress(p.progress, p.total, p.message).catch(() => undefined);
    };
    const unwatch = ms > 0 ? this.jobs.watch?.(jobId, forward) : undefined;
    try {
      for (;;) {
        const job = (await this.jobs.get<GenerationPayload, GenerationResult>(jobId, ownerId))!;
        if (job.progress) forward(job.progress);
        const terminal = !['queued', 'running'].includes(job.state);
        if (terminal || Date.now() >= deadline || ctx.signal.aborted) return job;
        await new Promise((r) => setTimeout(r, Math.min(100, Math.max(0, deadline - Date.now()))));
      }
    } finally {
      unwatch?.();
    }
  }
}
