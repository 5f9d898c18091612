import type { TestHost } from '@testkeeper/kernel/testing';
import { countRows, sql } from '../support/sql.js';

export { createProject } from '../support/projects.js';
export { expectToolError } from '../support/tool-errors.js';

/** Rows in the projects table, straight from the database (not through a tool). */
export function countProjects(host: TestHost): Promise<number> {
  return countRows(host, 'projects_projects');
}

/** The stored row of a project, straight from the database. */
export async function storedProject(host: TestHost, id: number): Promise<Record<string, unknown> | undefined> {
  return (await sql(host, 'SELECT * FROM projects_projects WHERE id = ?', [id]))[0];
}
