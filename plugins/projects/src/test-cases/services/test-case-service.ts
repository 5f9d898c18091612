import { inject, injectable, newVersion, notFound, Tokens, type Caller, type Clock, type StorageService, type TestCaseReader, type TestCaseView } from '@testkeeper/kernel';
import type { EntityManager } from 'typeorm';
import { TestCaseRow } from '../entities/test-case.js';
import { toRecord } from './test-case-records.js';

export type NewTestCase = Omit<TestCaseRow, 'id' | 'version' | 'created_at' | 'updated_at'>;

/**
 * Reads and writes test case rows with the ownership rule. Exported to other packs as
 * Tokens.TestCases (read access); the toolsets use the write side.
 */
@injectable()
export class TestCaseService implements TestCaseReader {
  constructor(
    @inject(Tokens.Storage) private readonly storage: StorageService,
    @inject(Tokens.Clock) private readonly clock: Clock,
  ) {}

  /** The caller's row, or `not_found` for missing and foreign ids alike. */
  async requireRow(caller: Caller, id: number, em?: EntityManager): Promise<TestCaseRow> {
    const row = await (em ?? this.storage.manager).findOne(TestCaseRow, { where: { id } });
    if (!row || row.owner_id !== caller.userId) throw notFound('test case', id);
    return row;
  }

  async requireTestCase(caller: Caller, testCaseId: number): Promise<TestCaseView> {
    const { expected_result: _e, source_name: _s, created_at: _c, updated_at: _u, ...view } = toRecord(await this.requireRow(caller, testCaseId));
    return view;
  }

  stamp(): { version: string; now: string } {
    const now = this.clock.now();
    return { version: newVersion(now), now: now.toISOString() };
  }

  async insert(em: EntityManager, values: NewTestCase): Promise<TestCaseRow> {
    const { version, now } = this.stamp();
    const row = em.create(TestCaseRow, { ...values, version, created_at: now, updated_at: now });
    return em.save(row);
  }
}
