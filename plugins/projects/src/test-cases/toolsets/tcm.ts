import {
  inject,
  invalidArgument,
  positiveId,
  Tokens,
  Tool,
  Toolset,
  z,
  type ProjectAccess,
  type SecretStore,
  type TcmCredentials,
  type ToolContext,
} from '@testkeeper/kernel';
import { line } from '../domain/text-limits.js';
import { CaseImporter } from '../services/importer.js';
import { tcmSecretKey } from '../services/project-hooks.js';
import { TcmRegistry } from '../tcm/tcm-registry.js';

interface SavedTcm extends TcmCredentials {
  tcm: string;
}

const id = positiveId;

@Toolset({ id: 'tcm', title: 'Test-case manager import', description: 'Save test-case manager credentials and import its cases' })
export class TcmToolset {
  constructor(
    @inject(Tokens.ProjectAccess) private readonly projects: ProjectAccess,
    @inject(Tokens.Secrets) private readonly secrets: SecretStore,
    @inject(TcmRegistry) private readonly backends: TcmRegistry,
    @inject(CaseImporter) private readonly importer: CaseImporter,
  ) {}

  @Tool({
    name: 'save_tcm_credentials',
    description: 'Save test-case manager credentials (encrypted, write-only).',
    input: z.object({
      project_id: id,
      base_url: line(500),
      username: line(200),
      api_key: line(500),
      tcm: line(40).default('testrail'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async save(args: { project_id: number; base_url: string; username: string; api_key: string; tcm: string }, ctx: ToolContext) {
    this.backends.require(args.tcm);
    let url: URL;
    try {
      url = new URL(args.base_url);
    } catch {
      throw invalidArgument('base_url is not a URL', 'Give the instance root, e.g. https://acme.testrail.io');
    }
    if (!/^https?:$/.test(url.protocol)) throw invalidArgument('base_url must use http or https', 'Give the instance root, e.g. https://acme.testrail.io');
    const project = await this.projects.requireProject(ctx.caller, args.project_id);
    const saved: SavedTcm = { tcm: args.tcm, base_url: url.toString().replace(/\/+$/, ''), username: args.username, api_key: args.api_key };
    await this.secrets.put(project.owner_id, tcmSecretKey(project.id), JSON.stringify(saved));
    return { saved: true, project_id: project.id, tcm: saved.tcm, base_url: saved.base_url, username: saved.username };
  }

  @Tool({
    name: 'import_from_tcm',
    description: 'Import test cases from the saved test-case manager; re-import updates them.',
    input: z.object({ project_id: id, tcm_project_id: id, tcm_suite_id: id.optional() }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async import(args: { project_id: number; tcm_project_id: number; tcm_suite_id?: number }, ctx: ToolContext) {
    const project = await this.projects.requireProject(ctx.caller, args.project_id);
    let saved: SavedTcm | null;
    try {
      const raw = await this.secrets.get(project.owner_id, tcmSecretKey(project.id));
      saved = raw ? (JSON.parse(raw) as SavedTcm) : null;
    } catch {
      // Sealed with another key (the server key changed) or damaged: the only fix is to save again.
      throw invalidArgument(`The saved test-case manager credentials of project ${project.id} cannot be read`, 'Save them again with save_tcm_credentials.');
    }
    if (!saved) throw invalidArgument(`No test-case manager credentials are saved for project ${project.id}`, 'Save them with save_tcm_credentials first.');
    const backend = this.backends.require(saved.tcm);
    const { cases, suites } = await backend.fetchCases(saved, { projectId: args.tcm_project_id, suiteId: args.tcm_suite_id, signal: ctx.signal });
    const result = await this.importer.write(
      project,
      cases.map((c) => ({ ...c, ref: `tcm:${saved.tcm}:${c.external_id}` })),
      { sourceName: `${saved.tcm}:${args.tcm_project_id}`, onExisting: 'update' },
    );
    return {
      tcm: saved.tcm,
      tcm_project_id: args.tcm_project_id,
      suites: suites.map((s) => ({ id: s.id, name: s.name })),
      fetched: cases.length,
      created: result.created,
      updated: result.updated,
      unchanged: result.unchanged.length,
    };
  }
}
