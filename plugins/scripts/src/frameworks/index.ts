/** Framework layout, shared with the executions half of this pack and with tests. */
export { FRAMEWORKS, DEFAULT_FRAMEWORK, RUN_COMMAND, isFramework, type Framework } from './catalog.js';
export { frameworkDir, projectFrameworksRoot, scriptFilePath, slugOf } from './layout.js';
export { ensureFramework, writeScriptFile } from './framework-files.js';
