import type { PluginRegistrar } from '@testkeeper/kernel';

/** Registers test cases, search, memory, instructions and imports. Filled in by the test-case work. */
export function registerTestCases(_reg: PluginRegistrar): void {}
