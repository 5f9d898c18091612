import { createHash } from 'node:crypto';
import { inject, injectable, Tokens, type ProjectRef, type StorageService } from '@testkeeper/kernel';
import { normalizePriority, type Priority } from '../domain/priority.js';
import { DEFAULT_STATUS } from '../domain/status.js';
import { cleanSteps, normalizeTags, type Step } from '../domain/steps.js';
import { TestCaseRow } from '../entities/test-case.js';
import { normalize } from '../engines/text.js';
import { TestCaseService } from './test-case-service.js';

export interface ImportCase {
  /** Stable identity within the project: a re-import finds the earlier row by it. */
  ref: string;
  title: string;
  description: string;
  preconditions: string;
  steps: Step[];
  priority?: string | number;
  category?: string;
  tags?: string[];
}

export interface ImportOutcome {
  created: Array<{ id: number; title: string }>;
  updated: Array<{ id: number; title: string }>;
  unchanged: Array<{ id: number; title: string }>;
}

/** A document case's identity: its normalized title (so a second import of the text matches). */
export const documentRef = (title: string) => `doc:${createHash('sha256').update(normalize(title)).digest('hex').slice(0, 40)}`;

/** Priority from an outside source; anything unrecognized becomes `medium` rather than failing the import. */
export function importedPriority(value: string | number | undefined): Priority {
  if (value === undefined || value === '') return 'medium';
  try {
    return normalizePriority(value);
  } catch {
    return 'medium';
  }
}

/**
 * Writes imported cases in one transaction. A case whose ref already exists is left alone
 * (`onExisting: 'keep'`, documents: the user may have edited it) or brought up to date
 * (`'update'`, test-case managers are the source of truth); unchanged rows keep their version.
 */
@injectable()
export class CaseImporter {
  constructor(
    @inject(Tokens.Storage) private readonly storage: StorageService,
    @inject(TestCaseService) private readonly cases: TestCaseService,
  ) {}

  async write(project: ProjectRef, items: ImportCase[], opts: { sourceName: string; onExisting: 'keep' | 'update' }): Promise<ImportOutcome> {
    const outcome: ImportOutcome = { created: [], updated: [], unchanged: [] };
    const seen = new Set<string>();
    await this.storage.write(async (em) => {
      for (const item of items) {
        if (seen.has(item.ref)) continue;
        seen.add(item.ref);
        const fields = {
          title: item.title.slice(0, 500),
          description: item.description,
          preconditions: item.preconditions,
          steps: JSON.stringify(cleanSteps(item.steps)),
          priority: importedPriority(item.priority),
          category: (item.category ?? '').slice(0, 100),
          tags: JSON.stringify(normalizeTags(item.tags ?? [])),
        };
        const existing = await em.findOne(TestCaseRow, { where: { project_id: project.id, external_ref: item.ref } });
        if (!existing) {
          const row = await this.cases.insert(em, {
            ...fields,
            project_id: project.id,
            owner_id: project.owner_id,
            detailed_instructions: '',
            expected_result: '',
            status: DEFAULT_STATUS,
            source_name: opts.sourceName,
            external_ref: item.ref,
          });
          outcome.created.push({ id: row.id, title: row.title });
          continue;
        }
        const changed = (Object.keys(fields) as Array<keyof typeof fields>).some((k) => existing[k] !== fields[k]);
        if (opts.onExisting === 'keep' || !changed) {
          outcome.unchanged.push({ id: existing.id, title: existing.title });
          continue;
        }
        const { version, now } = this.cases.stamp();
        await em.update(TestCaseRow, { id: existing.id }, { ...fields, source_name: opts.sourceName, version, updated_at: now });
        outcome.updated.push({ id: existing.id, title: fields.title });
      }
    });
    return outcome;
  }
}
