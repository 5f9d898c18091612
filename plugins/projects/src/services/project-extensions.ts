import {
  injectable,
  ProjectCleanup,
  ProjectStatistics,
  type ExtensionPointView,
  type PluginContext,
  type ProjectCleanupContribution,
  type ProjectStatisticsContribution,
} from '@testkeeper/kernel';

export interface Contribution<T> {
  id: string;
  pluginId: string;
  value: T;
}

/** Where project services find the contributions other packs made to the projects extension points. */
export interface ProjectContributions {
  cleanups(): Array<Contribution<ProjectCleanupContribution>>;
  statistics(): Array<Contribution<ProjectStatisticsContribution>>;
}

/**
 * Holds the extension-point views. Toolsets are built before plugins initialise, and packs that
 * depend on projects contribute after it, so the views are attached in the plugin's onInit.
 */
@injectable()
export class ProjectExtensions implements ProjectContributions {
  private cleanupView?: ExtensionPointView<ProjectCleanupContribution>;
  private statisticsView?: ExtensionPointView<ProjectStatisticsContribution>;

  attach(ctx: Pick<PluginContext, 'extensions'>): void {
    this.cleanupView = ctx.extensions(ProjectCleanup);
    this.statisticsView = ctx.extensions(ProjectStatistics);
  }

  cleanups() {
    // Never delete a project without the other packs' cleanup: fail loudly instead.
    if (!this.cleanupView) throw new Error('projects plugin is not initialised: cleanup contributions are unknown');
    return this.cleanupView.all();
  }

  statistics() {
    if (!this.statisticsView) throw new Error('projects plugin is not initialised: statistics contributions are unknown');
    return this.statisticsView.all();
  }
}
