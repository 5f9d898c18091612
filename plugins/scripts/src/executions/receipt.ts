import { createHash } from 'node:crypto';

export interface ReceiptLineage {
  project_id: number;
  test_case_id: number | null;
  script_id: number | null;
  script_version: string | null;
  frameworks: string[];
  runners: Array<{ runner: string; framework: string; tool_version: string | null }>;
  base_url: string | null;
}

export interface ReceiptRevisions {
  script_version: string | null;
  test_case_version: string | null;
  /** sha256 of the framework directory's files at run time, per framework. */
  framework_sha256: Record<string, string | null>;
}

export interface ReceiptEvidence {
  status: string;
  exit_codes: Array<number | null>;
  passed: number;
  failed: number;
  skipped: number;
  total: number;
  logs_sha256: string;
  finished_at: string;
}

export interface Receipt {
  /** Opaque reference to this receipt; there is no download behind it. */
  reference: string;
  lineage: ReceiptLineage;
  revisions: ReceiptRevisions;
  evidence: ReceiptEvidence;
}

/** The reference is a hash of the content, so a changed receipt cannot keep its reference. */
export function buildReceipt(lineage: ReceiptLineage, revisions: ReceiptRevisions, evidence: ReceiptEvidence): Receipt {
  const reference = `rcpt_${createHash('sha256').update(JSON.stringify({ lineage, revisions, evidence })).digest('hex').slice(0, 32)}`;
  return { reference, lineage, revisions, evidence };
}
