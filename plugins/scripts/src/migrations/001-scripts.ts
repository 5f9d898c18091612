import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class ScriptsCreate1700000002001 implements MigrationInterface {
  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'scripts_scripts',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'owner_id', type: 'integer' },
          { name: 'project_id', type: 'integer' },
          { name: 'test_case_id', type: 'integer', isNullable: true },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'framework', type: 'varchar', length: '40' },
          { name: 'code', type: 'text' },
          { name: 'version', type: 'varchar', length: '40' },
          { name: 'created_at', type: 'varchar', length: '40' },
          { name: 'updated_at', type: 'varchar', length: '40' },
        ],
      }),
    );
    await qr.createIndex('scripts_scripts', new TableIndex({ name: 'scripts_scripts_project', columnNames: ['project_id', 'id'] }));
    await qr.createIndex('scripts_scripts', new TableIndex({ name: 'scripts_scripts_test_case', columnNames: ['test_case_id'] }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('scripts_scripts');
  }
}
