import type { InjectionToken } from 'tsyringe';
import type { Clock, Logger, Ownership, ProjectAccess, ProjectMemoryWriter, StorageService, TestCaseReader, UserDirectory } from './services.js';
import type { KernelConfig } from '../config/schema.js';
import type { JobQueue } from './jobs.js';
import type { ModelService } from './models.js';
import type { Sandbox } from './sandbox.js';
import type { SecretStore } from './secrets.js';

/** Injection tokens for the kernel's shared services. Use with `@inject(Tokens.X)`. */
export const Tokens = {
  Storage: 'testkeeper.Storage' as InjectionToken<StorageService>,
  Logger: 'testkeeper.Logger' as InjectionToken<Logger>,
  Config: 'testkeeper.Config' as InjectionToken<KernelConfig>,
  Clock: 'testkeeper.Clock' as InjectionToken<Clock>,
  Users: 'testkeeper.Users' as InjectionToken<UserDirectory>,
  Ownership: 'testkeeper.Ownership' as InjectionToken<Ownership>,
  /** Provided by the projects plugin. */
  ProjectAccess: 'testkeeper.ProjectAccess' as InjectionToken<ProjectAccess>,
  /** Provided by the projects plugin. */
  TestCases: 'testkeeper.TestCases' as InjectionToken<TestCaseReader>,
  /** Provided by the projects plugin. */
  ProjectMemory: 'testkeeper.ProjectMemory' as InjectionToken<ProjectMemoryWriter>,
  /** Kernel services added as their issues land; see the interface files. */
  Secrets: 'testkeeper.Secrets' as InjectionToken<SecretStore>,
  Models: 'testkeeper.Models' as InjectionToken<ModelService>,
  Jobs: 'testkeeper.Jobs' as InjectionToken<JobQueue>,
  Sandbox: 'testkeeper.Sandbox' as InjectionToken<Sandbox>,
} as const;
