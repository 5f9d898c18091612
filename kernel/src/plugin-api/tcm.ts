import { createExtensionPoint } from './extension-points.js';

/**
 * Owner: projects. External test-case managers that `import_from_tcm` reads from.
 * Contribution id = the `tcm` name users pass to `save_tcm_credentials` (e.g. `testrail`).
 */
export interface TcmCredentials {
  base_url: string;
  username: string;
  api_key: string;
}

export interface TcmCase {
  /** The manager's own id, stable across imports (e.g. TestRail case id). */
  external_id: string;
  title: string;
  description: string;
  preconditions: string;
  steps: Array<{ step: string; expected?: string }>;
  /** Already mapped to 1-5 or critical|high|medium|low. */
  priority?: string | number;
  /** Suite or section name. */
  category?: string;
  tags?: string[];
}

export interface TcmBackend {
  /** Every case of a project (all suites, or one suite when given), following pagination. */
  fetchCases(creds: TcmCredentials, query: { projectId: number; suiteId?: number; signal?: AbortSignal }): Promise<{ cases: TcmCase[]; suites: Array<{ id: number; name: string }> }>;
}

export const TcmBackends = createExtensionPoint<TcmBackend>('projects.tcm');
