import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createFullTextIndex, dropFullTextIndex } from './fts.js';

export class ProjectsTestCases1700000001101 implements MigrationInterface {
  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'projects_test_cases',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'project_id', type: 'integer' },
          { name: 'owner_id', type: 'integer' },
          { name: 'title', type: 'varchar', length: '500' },
          { name: 'description', type: 'text', default: "''" },
          { name: 'detailed_instructions', type: 'text', default: "''" },
          { name: 'preconditions', type: 'text', default: "''" },
          { name: 'steps', type: 'text', default: "'[]'" },
          { name: 'expected_result', type: 'text', default: "''" },
          { name: 'priority', type: 'varchar', length: '10' },
          { name: 'category', type: 'varchar', length: '100', default: "''" },
          { name: 'tags', type: 'text', default: "'[]'" },
          { name: 'status', type: 'varchar', length: '20' },
          { name: 'source_name', type: 'varchar', length: '300', isNullable: true },
          { name: 'external_ref', type: 'varchar', length: '300', isNullable: true },
          { name: 'version', type: 'varchar', length: '40' },
          { name: 'created_at', type: 'varchar', length: '40' },
          { name: 'updated_at', type: 'varchar', length: '40' },
        ],
      }),
    );
    await qr.createIndex('projects_test_cases', new TableIndex({ name: 'projects_test_cases_project', columnNames: ['project_id', 'id'] }));
    // NULLs are distinct in both databases, so only imported cases are constrained.
    await qr.createIndex(
      'projects_test_cases',
      new TableIndex({ name: 'projects_test_cases_external', columnNames: ['project_id', 'external_ref'], isUnique: true }),
    );
    await createFullTextIndex(qr, { table: 'projects_test_cases', columns: ['title', 'tags', 'description'] });
  }

  async down(qr: QueryRunner): Promise<void> {
    await dropFullTextIndex(qr, 'projects_test_cases');
    await qr.dropTable('projects_test_cases');
  }
}
