import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createFullTextIndex, dropFullTextIndex } from './fts.js';

export class ProjectsMemory1700000001102 implements MigrationInterface {
  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'projects_memory',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'project_id', type: 'integer' },
          { name: 'owner_id', type: 'integer' },
          { name: 'kind', type: 'varchar', length: '20' },
          { name: 'text', type: 'text' },
          { name: 'text_key', type: 'varchar', length: '64' },
          { name: 'test_case_id', type: 'integer', isNullable: true },
          { name: 'source', type: 'varchar', length: '200' },
          { name: 'source_ref', type: 'varchar', length: '300', isNullable: true },
          { name: 'created_at', type: 'varchar', length: '40' },
        ],
      }),
    );
    await qr.createIndex('projects_memory', new TableIndex({ name: 'projects_memory_project', columnNames: ['project_id', 'id'] }));
    await qr.createIndex('projects_memory', new TableIndex({ name: 'projects_memory_dedupe', columnNames: ['project_id', 'kind', 'text_key'] }));
    await createFullTextIndex(qr, { table: 'projects_memory', columns: ['text'] });
    await qr.createTable(
      new Table({
        name: 'projects_memory_reuse',
        columns: [
          { name: 'project_id', type: 'integer', isPrimary: true },
          { name: 'reused', type: 'integer', default: 0 },
          { name: 'not_reused', type: 'integer', default: 0 },
        ],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('projects_memory_reuse');
    await dropFullTextIndex(qr, 'projects_memory');
    await qr.dropTable('projects_memory');
  }
}
