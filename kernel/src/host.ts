/** Host internals for the CLI, tests and embedding. Plugins must not import this. */
export { Kernel, type BootOptions } from './runtime/kernel.js';
export { HttpFrontend } from './http/app.js';
export { serveStdio } from './mcp/stdio.js';
export { createMcpServer, toCallToolResult } from './mcp/server.js';
export { loadConfig } from './config/load.js';
export { configSchema, type KernelConfig } from './config/schema.js';
export { findAppRoot } from './runtime/app-root.js';
export { judge, enabledNames, diff, type InventoryTool, type InventoryFilter } from './registry/inventory.js';
export { discoverPlugins, inspectPackage } from './runtime/discovery.js';
export { orderByDependencies, checkHostApi, isSelected } from './runtime/selection.js';
export { HostGuard } from './http/host-guard.js';
export { SerialQueue } from './storage/serial-queue.js';
export { DefaultModelService, type NamedProvider } from './models/model-service.js';
export { parseModelJson } from './models/json-output.js';
export { openAiCompatibleProvider } from './models/providers/openai-compatible.js';
export { AesSecretStore } from './secrets/secret-store.js';
export { loadSecretKey } from './secrets/key.js';
