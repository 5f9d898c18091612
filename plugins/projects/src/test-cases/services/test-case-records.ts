import type { TestCaseView } from '@testkeeper/kernel';
import type { Step } from '../domain/steps.js';
import type { TestCaseRow } from '../entities/test-case.js';

/** The full record a client sees. */
export interface TestCaseRecord extends TestCaseView {
  expected_result: string;
  source_name: string | null;
  created_at: string;
  updated_at: string;
}

export function parseJsonArray<T>(text: string): T[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export function toRecord(row: TestCaseRow): TestCaseRecord {
  return {
    id: row.id,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    detailed_instructions: row.detailed_instructions,
    preconditions: row.preconditions,
    steps: parseJsonArray<Step>(row.steps),
    expected_result: row.expected_result,
    priority: row.priority,
    category: row.category,
    tags: parseJsonArray<string>(row.tags),
    status: row.status,
    version: row.version,
    source_name: row.source_name,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The compact form used by lists and search hits. */
export function toSummary(row: Pick<TestCaseRow, 'id' | 'title' | 'priority' | 'category' | 'status' | 'tags' | 'version' | 'steps'>) {
  return {
    id: row.id,
    title: row.title,
    priority: row.priority,
    category: row.category,
    status: row.status,
    tags: parseJsonArray<string>(row.tags),
    steps_count: parseJsonArray(row.steps).length,
    version: row.version,
  };
}
