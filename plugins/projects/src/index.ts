import { definePlugin, ProjectCleanup, ProjectStatistics, Tokens } from '@testkeeper/kernel';
import { ProjectRow } from './entities/project.js';
import { ProjectsCreate1700000001001 } from './migrations/001-projects.js';
import { ProjectAccessService } from './services/project-access.js';
import { ProjectCreation } from './services/project-creation.js';
import { ProjectDeletion } from './services/project-deletion.js';
import { ProjectExtensions } from './services/project-extensions.js';
import { ProjectStore } from './services/project-store.js';
import { ProjectSummaries } from './services/project-summary.js';
import { registerCapabilities } from './capabilities/register.js';
import { registerTestCases } from './test-cases/register.js';
import { ProjectsToolset } from './toolsets/projects.js';

export default definePlugin({
  id: 'projects',
  register(reg) {
    reg.entities(ProjectRow);
    reg.migrations(ProjectsCreate1700000001001);
    reg.exportService(Tokens.ProjectAccess, ProjectAccessService);
    reg.extensionPoint(ProjectStatistics);
    reg.extensionPoint(ProjectCleanup);
    reg.service(ProjectExtensions, ProjectExtensions);
    reg.service(ProjectStore, ProjectStore);
    reg.service(ProjectCreation, ProjectCreation);
    reg.service(ProjectDeletion, ProjectDeletion);
    reg.service(ProjectSummaries, ProjectSummaries);
    // Contributions are complete only once every plugin is wired: read them at init.
    reg.onInit((ctx) => ctx.container.resolve(ProjectExtensions).attach(ctx));
    reg.toolsets(ProjectsToolset);
    // The test-case half of the pack (its own entities, migrations and toolsets).
    registerTestCases(reg);
    registerCapabilities(reg);
  },
});
