export { ProcessSandbox } from './process-sandbox.js';
export { killProcessGroup } from './kill.js';
export { RunRegistry } from './run-registry.js';
export { buildSandboxEnv, INHERITED_ENV } from './env.js';
export { CappedOutput, truncationMarker } from './output-cap.js';
