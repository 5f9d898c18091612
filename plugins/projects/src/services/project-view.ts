import type { ProjectRow } from '../entities/project.js';
import { parseSettings } from './gates.js';

/** A project as tools return it. `test_frameworks` is the parsed settings object. */
export function projectView(row: ProjectRow) {
  return {
    project_id: row.id,
    name: row.name,
    key: row.key,
    slug: row.slug,
    project_type: row.project_type,
    description: row.description,
    main_url: row.main_url,
    test_frameworks: parseSettings(row.test_frameworks),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type ProjectView = ReturnType<typeof projectView>;
