import { ApiTokenRow, UserRow } from '../auth/entities.js';
import { KernelUsersAndTokens1700000000001 } from '../auth/migrations.js';

/** Every kernel entity and migration (tracked in `kernel_migrations`). Add new kernel tables here. */
export const kernelEntities: Function[] = [UserRow, ApiTokenRow];
export const kernelMigrations = [KernelUsersAndTokens1700000000001];
