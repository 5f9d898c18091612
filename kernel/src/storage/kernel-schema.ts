import { ApiTokenRow, UserRow } from '../auth/entities.js';
import { KernelUsersAndTokens1700000000001 } from '../auth/migrations.js';
import { SecretRow } from '../secrets/entities.js';
import { KernelSecrets1700000000002 } from '../secrets/migrations.js';
import { JobRow } from '../jobs/job-row.js';
import { KernelJobs1700000000101 } from '../jobs/migrations.js';

/** Every kernel entity and migration (tracked in `kernel_migrations`). Add new kernel tables here. */
export const kernelEntities: Function[] = [UserRow, ApiTokenRow, SecretRow, JobRow];
export const kernelMigrations = [KernelUsersAndTokens1700000000001, KernelSecrets1700000000002, KernelJobs1700000000101];
