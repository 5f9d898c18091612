import { inject, injectable, Tokens, type Caller, type Logger } from '@testkeeper/kernel';
import { ProjectExtensions, type ProjectContributions } from './project-extensions.js';
import { ProjectStore } from './project-store.js';
import { projectView, type ProjectView } from './project-view.js';

export const SUMMARY_FIELDS = ['last_activity', 'project', 'statistics'] as const;
export type SummaryField = (typeof SUMMARY_FIELDS)[number];

export interface ProjectSummary {
  project_id: number;
  project?: ProjectView;
  statistics?: Record<string, number>;
  last_activity?: string;
  /** Contributions whose statistics could not be collected (logged); their counts are missing. */
  statistics_unavailable?: string[];
}

/** The counts every summary has, whether or not a pack contributes them. */
const BASE_COUNTS = { test_cases: 0, scripts: 0, executions: 0 };

/** get_project_summary: one project read plus the packs' statistics, collected in parallel. */
@injectable()
export class ProjectSummaries {
  constructor(
    @inject(ProjectStore) private readonly store: ProjectStore,
    @inject(ProjectExtensions) private readonly contributions: ProjectContributions,
    @inject(Tokens.Logger) private readonly logger: Logger,
  ) {}

  async summary(caller: Caller, projectId: number, fields?: readonly SummaryField[]): Promise<ProjectSummary> {
    const want = new Set<SummaryField>(fields?.length ? fields : SUMMARY_FIELDS);
    const row = await this.store.requireOwned(caller, projectId);
    const out: ProjectSummary = { project_id: row.id };
    if (want.has('project')) out.project = projectView(row);
    if (!want.has('statistics') && !want.has('last_activity')) return out;

    const collected = await this.collect(row.id);
    if (want.has('statistics')) out.statistics = collected.counts;
    if (want.has('last_activity')) out.last_activity = newest([row.updated_at, ...collected.activity]);
    if (collected.unavailable.length) out.statistics_unavailable = collected.unavailable;
    return out;
  }

  private async collect(projectId: number) {
    const counts: Record<string, number> = { ...BASE_COUNTS };
    const activity: string[] = [];
    const unavailable: string[] = [];
    const list = this.contributions.statistics();
    if (list.length === 0) return { counts, activity, unavailable };
    const settled = await Promise.allSettled(list.map((c) => c.value.collect(projectId)));
    settled.forEach((s, i) => {
      if (s.status === 'rejected') {
        this.logger.error({ err: s.reason, projectId, contribution: list[i].id }, 'project statistics failed');
        unavailable.push(list[i].id);
        return;
      }
      // Two packs counting the same thing add up (e.g. executions of scripts and of native runs).
      for (const [k, v] of Object.entries(s.value.counts)) if (Number.isFinite(v)) counts[k] = (counts[k] ?? 0) + v;
      if (s.value.last_activity) activity.push(s.value.last_activity);
    });
    return { counts, activity, unavailable };
  }
}

/** The latest of some ISO timestamps (unparseable ones are ignored), as ISO. */
export function newest(timestamps: readonly string[]): string {
  let best = Number.NEGATIVE_INFINITY;
  let bestText = timestamps[0];
  for (const t of timestamps) {
    const ms = Date.parse(t);
    if (!Number.isNaN(ms) && ms > best) {
      best = ms;
      bestText = new Date(ms).toISOString();
    }
  }
  return bestText;
}
