#!/usr/bin/env node
/**
 * Scaffolds a plugin pack: `node scripts/new-plugin.mjs <id> [--dir plugins] [--prefix <p>]`.
 * Writes package.json (with the `testkeeper` manifest), tsconfig.json, src/index.ts and one
 * toolset with a single read-only tool, then prints the steps that wire it into the workspace.
 * Tool names of a third-party pack should start with a prefix (default: the id, dashes → _).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { dir: { type: 'string', default: 'plugins' }, prefix: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
const id = positionals[0];
if (values.help || !id) {
  console.log('Usage: node scripts/new-plugin.mjs <id> [--dir plugins] [--prefix tool_prefix]');
  process.exit(id ? 0 : 2);
}
if (!/^[a-z][a-z0-9-]{0,39}$/.test(id)) {
  console.error(`Plugin id "${id}" must be lower-case letters, digits and dashes, starting with a letter.`);
  process.exit(2);
}
const target = path.resolve(root, values.dir, id);
if (existsSync(target)) {
  console.error(`${target} already exists; pick another id or remove it.`);
  process.exit(1);
}
const prefix = values.prefix ?? id.replace(/-/g, '_');
const pascal = id.replace(/(^|-)([a-z0-9])/g, (_, __, c) => c.toUpperCase());
const rel = (p) => path.relative(target, path.join(root, p)).split(path.sep).join('/');

const files = {
  'package.json': JSON.stringify(
    {
      name: `@testkeeper/plugin-${id}`,
      version: '0.1.0',
      description: `Testkeeper ${id} pack`,
      type: 'module',
      license: 'Apache-2.0',
      main: 'dist/index.js',
      types: 'dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      testkeeper: { plugin: id, hostApi: '^1', dependsOn: [] },
      peerDependencies: { '@testkeeper/kernel': '*', zod: '*' },
    },
    null,
    2,
  ),
  'tsconfig.json': JSON.stringify(
    {
      extends: rel('tsconfig.base.json'),
      compilerOptions: { rootDir: 'src', outDir: 'dist' },
      include: ['src'],
      references: [{ path: rel('kernel') }],
    },
    null,
    2,
  ),
  'src/index.ts': `import { definePlugin } from '@testkeeper/kernel';
import { ${pascal}Toolset } from './toolsets/${id}.js';

export default definePlugin({
  id: '${id}',
  register(reg) {
    reg.toolsets(${pascal}Toolset);
  },
});
`,
  [`src/toolsets/${id}.ts`]: `import { Tool, Toolset, z, type ToolContext } from '@testkeeper/kernel';

@Toolset({ id: '${id}', title: '${pascal}', description: 'What this toolset is for, in one line' })
export class ${pascal}Toolset {
  @Tool({
    name: '${prefix}_ping',
    description: 'Answer pong with the caller name.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
  })
  async ping(_args: Record<string, never>, ctx: ToolContext) {
    return { pong: true, caller: ctx.caller.username };
  }
}
`,
};

for (const [name, text] of Object.entries(files)) {
  const file = path.join(target, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text.endsWith('\n') ? text : text + '\n');
}
console.log(`Created ${path.relative(root, target)}/ (${Object.keys(files).join(', ')}).
Next steps:
  1. add { "path": "${path.relative(root, target)}" } to the references of tsconfig.json and test/tsconfig.json
  2. add "@testkeeper/plugin-${id}": "*" to the root package.json dependencies, then npm install (links it)
  3. npx tsc -b, then UPDATE_SNAPSHOTS=1 npx mocha test/dist/kernel/tool-snapshots.test.js for the new tool`);
