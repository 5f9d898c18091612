import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class ProjectsCreate1700000001001 implements MigrationInterface {
  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'projects_projects',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'owner_id', type: 'integer' },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'name_normalized', type: 'varchar', length: '200' },
          { name: 'description', type: 'text', default: "''" },
          { name: 'main_url', type: 'varchar', length: '2000', isNullable: true },
          { name: 'key', type: 'varchar', length: '10' },
          { name: 'slug', type: 'varchar', length: '120' },
          { name: 'project_type', type: 'varchar', length: '20', default: "'web'" },
          { name: 'test_frameworks', type: 'text', default: "'{}'" },
          { name: 'version', type: 'varchar', length: '40' },
          { name: 'created_at', type: 'varchar', length: '40' },
          { name: 'updated_at', type: 'varchar', length: '40' },
        ],
      }),
    );
    await qr.createIndex('projects_projects', new TableIndex({ name: 'projects_projects_owner_key', columnNames: ['owner_id', 'key'], isUnique: true }));
    await qr.createIndex('projects_projects', new TableIndex({ name: 'projects_projects_owner_slug', columnNames: ['owner_id', 'slug'], isUnique: true }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('projects_projects');
  }
}
