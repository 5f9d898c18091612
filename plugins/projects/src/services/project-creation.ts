import { conflict, inject, injectable, newVersion, Tokens, ToolError, type Caller, type Clock, type StorageService } from '@testkeeper/kernel';
import type { EntityManager } from 'typeorm';
import { ProjectRow, type ProjectType } from '../entities/project.js';
import { isUniqueViolation } from './db-errors.js';
import { deriveKey, deriveSlug } from './keys.js';
import { findSimilarProjects, normalizeName, type SimilarProject } from './similarity.js';

export interface NewProject {
  name: string;
  /** Already upper-cased and validated (checkExplicitKey). */
  key?: string;
  description: string;
  main_url: string | null;
  project_type: ProjectType;
  force_create: boolean;
}

/** A concurrent create can take the derived key or slug between our read and insert: retry (each round one wins). */
const CREATE_ATTEMPTS = 8;

/** create_project: the similar-project check, key and slug derivation, and the insert, in one transaction. */
@injectable()
export class ProjectCreation {
  constructor(
    @inject(Tokens.Storage) private readonly storage: StorageService,
    @inject(Tokens.Clock) private readonly clock: Clock,
  ) {}

  async create(caller: Caller, input: NewProject): Promise<ProjectRow> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.storage.write((em) => this.insert(em, caller.userId, input));
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (attempt >= CREATE_ATTEMPTS) {
          throw conflict('another project with the same key or slug was created at the same time', 'Retry create_project.');
        }
      }
    }
  }

  private async insert(em: EntityManager, ownerId: number, input: NewProject): Promise<ProjectRow> {
    const mine = await em.find(ProjectRow, {
      where: { owner_id: ownerId },
      select: { id: true, name: true, key: true, slug: true, main_url: true },
      order: { id: 'ASC' },
    });
    if (!input.force_create) {
      const similar = findSimilarProjects(input, mine);
      if (similar.length) throw needsConfirmation(similar);
    }
    const keys = new Set(mine.map((p) => p.key));
    if (input.key && keys.has(input.key)) {
      const owner = mine.find((p) => p.key === input.key)!;
      throw conflict(
        `key "${input.key}" is already used by your project "${owner.name}" (project_id ${owner.id})`,
        'Choose another key, or omit key to derive a free one from the name.',
        { project_id: owner.id },
      );
    }
    const now = this.clock.now();
    const row = em.create(ProjectRow, {
      owner_id: ownerId,
      name: input.name,
      name_normalized: normalizeName(input.name),
      description: input.description,
      main_url: input.main_url,
      key: input.key ?? deriveKey(input.name, keys),
      slug: deriveSlug(input.name, new Set(mine.map((p) => p.slug))),
      project_type: input.project_type,
      test_frameworks: '{}',
      version: newVersion(now),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    return em.save(row);
  }
}

const REASON_TEXT: Record<SimilarProject['reason'], string> = {
  same_name: 'same name',
  same_host: 'same main_url host',
  similar_name: 'similar name',
  shared_words: 'shares most words',
};

function needsConfirmation(similar: SimilarProject[]): ToolError {
  const list = similar.map((s) => `"${s.name}" (project_id ${s.id}, ${REASON_TEXT[s.reason]})`).join(', ');
  return new ToolError(
    'needs_confirmation',
    `You already have ${similar.length === 1 ? 'a similar project' : 'similar projects'}: ${list}. Nothing was created.`,
    'Use the existing project, or call create_project again with force_create: true to create it anyway.',
    { similar },
  );
}
