import { ProjectCleanup, ProjectStatistics, TcmBackends, TestCaseRelations, Tokens, type PluginRegistrar } from '@testkeeper/kernel';
import { MemoryReuseRow, MemoryRow } from './entities/memory.js';
import { TestCaseRow } from './entities/test-case.js';
import { ProjectsTestCases1700000001101 } from './migrations/101-test-cases.js';
import { ProjectsMemory1700000001102 } from './migrations/102-memory.js';
import { TestCaseRelationsView } from './services/relations.js';
import { TestCaseService } from './services/test-case-service.js';
import { testCaseCleanup, testCaseStatistics } from './services/project-hooks.js';
import { EnhanceToolset } from './toolsets/enhance.js';
import { ImportsToolset } from './toolsets/imports.js';
import { TcmToolset } from './toolsets/tcm.js';
import { TcmRegistry } from './tcm/tcm-registry.js';
import { TestRailBackend } from './tcm/testrail-backend.js';
import { CaseImporter } from './services/importer.js';
import { TestCasesToolset } from './toolsets/test-cases.js';
import { MemoryToolset } from './toolsets/memory.js';
import { AgentInstructionsToolset } from './toolsets/agent-instructions.js';
import { ProjectMemoryService } from './services/memory-service.js';

/** Registers test cases, search, memory, agent instructions and imports. */
export function registerTestCases(reg: PluginRegistrar): void {
  reg.entities(TestCaseRow, MemoryRow, MemoryReuseRow);
  reg.migrations(ProjectsTestCases1700000001101, ProjectsMemory1700000001102);
  reg.exportService(Tokens.TestCases, TestCaseService);
  reg.exportService(Tokens.ProjectMemory, ProjectMemoryService);
  reg.service(ProjectMemoryService, ProjectMemoryService);
  reg.service(TestCaseService, TestCaseService);
  reg.service(TestCaseRelationsView, TestCaseRelationsView);
  reg.extensionPoint(TestCaseRelations);
  reg.contribute(ProjectStatistics, 'test_cases', testCaseStatistics);
  reg.contribute(ProjectCleanup, 'test_cases', testCaseCleanup);
  reg.service(CaseImporter, CaseImporter);
  reg.service(TcmRegistry, TcmRegistry);
  reg.extensionPoint(TcmBackends);
  reg.contribute(TcmBackends, 'testrail', (c) => {
    const secrets = c.resolve(Tokens.Secrets);
    return new TestRailBackend({ scrub: (t) => secrets.scrub(t) });
  });
  reg.toolsets(TestCasesToolset, EnhanceToolset, ImportsToolset, TcmToolset, MemoryToolset, AgentInstructionsToolset);
  reg.onInit((ctx) => {
    ctx.container.resolve(TestCaseRelationsView).attach(ctx.extensions(TestCaseRelations));
    ctx.container.resolve(TcmRegistry).attach(ctx.extensions(TcmBackends));
  });
}
