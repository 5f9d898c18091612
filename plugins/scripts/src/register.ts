import type { PluginRegistrar } from '@testkeeper/kernel';

/** Scripts, patches, frameworks, generation and pending tests. */
export function registerScripts(_reg: PluginRegistrar): void {}
