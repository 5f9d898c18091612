import type { PluginRegistrar } from '@testkeeper/kernel';

/** get_test_capabilities. */
export function registerCapabilities(_reg: PluginRegistrar): void {}
