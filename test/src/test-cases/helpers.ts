export { newProject } from '../support/projects.js';
export { countRows, sql } from '../support/sql.js';
export { expectToolError as expectError } from '../support/tool-errors.js';
