import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class ScriptsPendingTests1700000002002 implements MigrationInterface {
  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'scripts_pending_tests',
        columns: [
          { name: 'id', type: 'varchar', length: '40', isPrimary: true },
          { name: 'owner_id', type: 'integer' },
          { name: 'project_id', type: 'integer' },
          { name: 'test_case_id', type: 'integer', isNullable: true },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'framework', type: 'varchar', length: '40' },
          { name: 'code', type: 'text' },
          { name: 'engine', type: 'varchar', length: '60' },
          { name: 'untranslated', type: 'text', default: "'[]'" },
          { name: 'status', type: 'varchar', length: '20', default: "'pending'" },
          { name: 'script_id', type: 'integer', isNullable: true },
          { name: 'created_at', type: 'varchar', length: '40' },
          { name: 'accepted_at', type: 'varchar', length: '40', isNullable: true },
        ],
      }),
    );
    await qr.createIndex('scripts_pending_tests', new TableIndex({ name: 'scripts_pending_tests_project', columnNames: ['project_id', 'status'] }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('scripts_pending_tests');
  }
}
