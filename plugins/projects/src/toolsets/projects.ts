import { inject, Tokens, Tool, Toolset, z, page, type StorageService, type ToolContext } from '@testkeeper/kernel';
import { ProjectRow } from '../entities/project.js';

const paging = {
  limit: z.number().int().min(1).max(100).default(50).describe('Page size (max 100)'),
  offset: z.number().int().min(0).default(0).describe('From next_offset of the previous page'),
};

@Toolset({ id: 'projects', title: 'Projects', description: 'Create, list, update and delete test projects' })
export class ProjectsToolset {
  constructor(@inject(Tokens.Storage) private readonly storage: StorageService) {}

  @Tool({
    name: 'list_projects',
    description: "List the caller's projects with key, slug and type. Call before create_project.",
    input: z.object(paging),
    annotations: { readOnlyHint: true },
  })
  async listProjects(args: { limit: number; offset: number }, ctx: ToolContext) {
    const [rows, total] = await this.storage.repo(ProjectRow).findAndCount({
      where: { owner_id: ctx.caller.userId },
      order: { id: 'ASC' },
      take: args.limit,
      skip: args.offset,
    });
    return page(
      rows.map((r) => ({ project_id: r.id, name: r.name, key: r.key, slug: r.slug, project_type: r.project_type, main_url: r.main_url })),
      total,
      args.limit,
      args.offset,
    );
  }
}
