import { definePlugin, ProjectCleanup, ProjectStatistics, Tokens } from '@testkeeper/kernel';
import { ProjectRow } from './entities/project.js';
import { ProjectsCreate1700000001001 } from './migrations/001-projects.js';
import { ProjectAccessService } from './services/project-access.js';
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
    reg.toolsets(ProjectsToolset);
    // The test-case half of the pack (its own entities, migrations and toolsets).
    registerTestCases(reg);
    registerCapabilities(reg);
  },
});
