import { conflict, inject, positiveId, Tokens, Tool, Toolset, z, type ModelService, type StorageService, type ToolContext } from '@testkeeper/kernel';
import { parseSteps } from '../domain/steps.js';
import { TestCaseRow } from '../entities/test-case.js';
import { enhanceTask } from '../engines/model-tasks.js';
import { toRecord } from '../services/test-case-records.js';
import { TestCaseService } from '../services/test-case-service.js';

@Toolset({ id: 'test_case_ai', title: 'Test case AI', description: 'Improve test cases with a model or the deterministic engine' })
export class EnhanceToolset {
  constructor(
    @inject(Tokens.Storage) private readonly storage: StorageService,
    @inject(Tokens.Models) private readonly models: ModelService,
    @inject(TestCaseService) private readonly cases: TestCaseService,
  ) {}

  @Tool({
    name: 'enhance_test_case',
    description: 'Add missing steps, expectations, preconditions and checks to a test case.',
    input: z.object({ test_case_id: positiveId }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async enhance(args: { test_case_id: number }, ctx: ToolContext) {
    const before = toRecord(await this.cases.requireRow(ctx.caller, args.test_case_id));
    const out = await enhanceTask(this.models, ctx, {
      title: before.title,
      description: before.description,
      preconditions: before.preconditions,
      steps: before.steps,
    });
    const steps = parseSteps(out.value.steps);
    const row = await this.storage.write(async (em) => {
      const { version, now } = this.cases.stamp();
      const values = { description: out.value.description, preconditions: out.value.preconditions, steps: JSON.stringify(steps), updated_at: now };
      // The model may take seconds: refuse to overwrite an edit made meanwhile.
      const ok = await this.storage.guardedUpdate(em, TestCaseRow, before.id, before.version, values, version);
      if (!ok) throw conflict(`test case ${before.id} changed while it was being enhanced`, 'Run enhance_test_case again on the current version.');
      return (await em.findOne(TestCaseRow, { where: { id: before.id } }))!;
    });
    return {
      ...toRecord(row),
      engine: out.engine,
      ...(out.model ? { model: out.model } : {}),
      ...(out.fallback_reason ? { fallback_reason: out.fallback_reason } : {}),
      added: out.value.added,
      previous_version: before.version,
    };
  }
}
