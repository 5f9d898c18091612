import type { PluginRegistrar } from '@testkeeper/kernel';
import { CapabilitySources } from './sources.js';
import { CapabilitiesToolset } from './toolset.js';

/** get_test_capabilities. */
export function registerCapabilities(reg: PluginRegistrar): void {
  reg.service(CapabilitySources, CapabilitySources);
  reg.toolsets(CapabilitiesToolset);
  // Runner and model-provider contributions are complete only at init.
  reg.onInit((ctx) => ctx.container.resolve(CapabilitySources).attach(ctx));
}
