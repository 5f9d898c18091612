import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class ScriptsExecutions1700000002101 implements MigrationInterface {
  async up(qr: QueryRunner): Promise<void> {
    const count = (name: string) => ({ name, type: 'integer', default: 0 });
    await qr.createTable(
      new Table({
        name: 'scripts_executions',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'execution_id', type: 'varchar', length: '40' },
          { name: 'owner_id', type: 'integer' },
          { name: 'project_id', type: 'integer' },
          { name: 'kind', type: 'varchar', length: '40' },
          { name: 'status', type: 'varchar', length: '20' },
          { name: 'script_id', type: 'integer', isNullable: true },
          { name: 'test_case_id', type: 'integer', isNullable: true },
          { name: 'frameworks', type: 'text', default: "'[]'" },
          { name: 'base_url', type: 'varchar', length: '2000', isNullable: true },
          { name: 'job_id', type: 'varchar', length: '40', isNullable: true },
          { name: 'worker_id', type: 'varchar', length: '200', isNullable: true },
          count('passed'),
          count('failed'),
          count('skipped'),
          count('total'),
          { name: 'duration_ms', type: 'integer', isNullable: true },
          { name: 'error', type: 'text', isNullable: true },
          { name: 'logs', type: 'text', default: "'[]'" },
          { name: 'artifacts', type: 'text', default: "'[]'" },
          { name: 'receipt', type: 'text', isNullable: true },
          { name: 'created_at', type: 'varchar', length: '40' },
          { name: 'started_at', type: 'varchar', length: '40', isNullable: true },
          { name: 'finished_at', type: 'varchar', length: '40', isNullable: true },
        ],
      }),
    );
    await qr.createIndex('scripts_executions', new TableIndex({ name: 'scripts_executions_public_id', columnNames: ['execution_id'], isUnique: true }));
    await qr.createIndex('scripts_executions', new TableIndex({ name: 'scripts_executions_project', columnNames: ['project_id', 'id'] }));
    await qr.createIndex('scripts_executions', new TableIndex({ name: 'scripts_executions_status', columnNames: ['status'] }));
    await qr.createTable(
      new Table({
        name: 'scripts_execution_results',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'execution_row_id', type: 'integer' },
          { name: 'owner_id', type: 'integer' },
          { name: 'script_id', type: 'integer', isNullable: true },
          { name: 'framework', type: 'varchar', length: '40' },
          { name: 'runner', type: 'varchar', length: '40' },
          { name: 'tool_version', type: 'varchar', length: '200', isNullable: true },
          { name: 'status', type: 'varchar', length: '20' },
          count('passed'),
          count('failed'),
          count('skipped'),
          count('total'),
          count('duration_ms'),
          { name: 'exit_code', type: 'integer', isNullable: true },
          { name: 'error', type: 'text', isNullable: true },
          { name: 'tests', type: 'text', default: "'[]'" },
          { name: 'created_at', type: 'varchar', length: '40' },
        ],
      }),
    );
    await qr.createIndex('scripts_execution_results', new TableIndex({ name: 'scripts_execution_results_execution', columnNames: ['execution_row_id'] }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('scripts_execution_results');
    await qr.dropTable('scripts_executions');
  }
}
