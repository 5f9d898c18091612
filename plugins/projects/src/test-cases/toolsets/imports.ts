import { inject, invalidArgument, positiveId, Tokens, Tool, Toolset, z, type ModelService, type ProjectAccess, type ToolContext } from '@testkeeper/kernel';
import { line, text } from '../domain/text-limits.js';
import { extractTask } from '../engines/document-task.js';
import { CaseImporter, documentRef } from '../services/importer.js';

const MAX_DOCUMENT = 200_000;

@Toolset({ id: 'test_case_imports', title: 'Test case imports', description: 'Import test cases from documents and test-case managers' })
export class ImportsToolset {
  constructor(
    @inject(Tokens.ProjectAccess) private readonly projects: ProjectAccess,
    @inject(Tokens.Models) private readonly models: ModelService,
    @inject(CaseImporter) private readonly importer: CaseImporter,
  ) {}

  @Tool({
    name: 'import_test_cases_from_document',
    description: 'Extract test cases from a document\'s text; re-import adds no duplicates.',
    input: z.object({
      project_id: positiveId,
      text_content: text(MAX_DOCUMENT),
      source_name: line(300).optional(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async importDocument(args: { project_id: number; text_content: string; source_name?: string }, ctx: ToolContext) {
    if (!args.text_content.trim()) throw invalidArgument('text_content is empty', 'Paste the document text (markdown, plain text, Gherkin or a table).');
    const project = await this.projects.requireProject(ctx.caller, args.project_id);
    const sourceName = args.source_name ?? 'document';
    const out = await extractTask(this.models, ctx, args.text_content);
    if (out.value.length === 0) {
      throw invalidArgument(
        'No test cases were found in text_content',
        'Use headings with numbered steps, Gherkin "Scenario:" blocks, a table with a title column, or sentences with "should"/"must".',
      );
    }
    const result = await this.importer.write(
      project,
      out.value.map((c) => ({ ...c, ref: documentRef(c.title), tags: ['imported'] })),
      { sourceName, onExisting: 'keep' },
    );
    return {
      source_name: sourceName,
      found: out.value.length,
      created: result.created,
      already_imported: result.unchanged,
      engine: out.engine,
      ...(out.model ? { model: out.model } : {}),
      ...(out.fallback_reason ? { fallback_reason: out.fallback_reason } : {}),
    };
  }
}
