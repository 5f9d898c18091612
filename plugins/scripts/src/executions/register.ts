import type { PluginRegistrar } from '@testkeeper/kernel';

/** Executions: records, get_execution, trigger_framework_run, run_native_test dispatch. */
export function registerExecutions(_reg: PluginRegistrar): void {}
