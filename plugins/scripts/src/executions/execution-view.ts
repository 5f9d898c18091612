import type { ExecutionResultRow, ExecutionRow } from './entities.js';
import type { Receipt } from './receipt.js';

export interface ViewOptions {
  include_receipt_details: boolean;
  include_logs: boolean;
  include_artifacts: boolean;
  /** Set when the caller asked by result_id. */
  result_id?: number;
}

const OPEN = new Set(['queued', 'running']);

/**
 * The `get_execution` answer: status, timing and outcome always; logs and artifact paths only
 * counted unless asked for; the receipt as an opaque reference unless details are asked for.
 */
export function executionView(row: ExecutionRow, results: ExecutionResultRow[], o: ViewOptions) {
  const logs = JSON.parse(row.logs) as unknown[];
  const artifacts = JSON.parse(row.artifacts) as string[];
  const receipt = row.receipt ? (JSON.parse(row.receipt) as Receipt) : null;
  return {
    execution_id: row.execution_id,
    ...(o.result_id !== undefined ? { result_id: o.result_id } : {}),
    kind: row.kind,
    status: row.status,
    project_id: row.project_id,
    script_id: row.script_id,
    test_case_id: row.test_case_id,
    frameworks: JSON.parse(row.frameworks) as string[],
    base_url: row.base_url,
    timing: { created_at: row.created_at, started_at: row.started_at, finished_at: row.finished_at, duration_ms: row.duration_ms },
    outcome: { passed: row.passed, failed: row.failed, skipped: row.skipped, total: row.total, error: row.error },
    results: results.map(resultView),
    log_count: logs.length,
    artifact_count: artifacts.length,
    ...(o.include_logs ? { logs } : {}),
    ...(o.include_artifacts ? { artifacts } : {}),
    receipt: receipt ? (o.include_receipt_details ? receipt : { reference: receipt.reference }) : null,
    ...(OPEN.has(row.status) ? { next_action: 'Still running: call get_execution again in a few seconds.' } : {}),
  };
}

export function resultView(r: ExecutionResultRow) {
  return {
    result_id: r.id,
    script_id: r.script_id,
    framework: r.framework,
    runner: r.runner,
    tool_version: r.tool_version,
    status: r.status,
    passed: r.passed,
    failed: r.failed,
    skipped: r.skipped,
    total: r.total,
    duration_ms: r.duration_ms,
    exit_code: r.exit_code,
    error: r.error,
    tests: JSON.parse(r.tests) as unknown[],
  };
}
