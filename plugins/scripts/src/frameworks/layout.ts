import path from 'node:path';
import { isFramework, type Framework } from './catalog.js';

/**
 * Where a project's framework lives: `<dataDir>/frameworks/<projectId>/<framework>/`, a runnable
 * project of that framework. Shared with the executions half of this pack (runners run it).
 */
export function frameworkDir(dataDir: string, projectId: number, framework: string): string {
  if (!Number.isSafeInteger(projectId) || projectId <= 0) throw new Error(`frameworkDir: bad project id ${projectId}`);
  if (!isFramework(framework)) throw new Error(`frameworkDir: unknown framework ${framework}`);
  return path.join(projectFrameworksRoot(dataDir, projectId), framework);
}

/** Every framework of one project (removed when the project is deleted). */
export function projectFrameworksRoot(dataDir: string, projectId: number): string {
  return path.join(path.resolve(dataDir), 'frameworks', String(projectId));
}

/**
 * A lower-case slug of a script name: letters, digits and `_` only (so no separators, no `..`),
 * starting with a letter, at most 40 characters.
 */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40)
    .replace(/_+$/, '');
  if (!slug) return 'script';
  return /^[a-z]/.test(slug) ? slug : `s_${slug}`;
}

/**
 * The test file of a script inside its framework, relative to the framework directory. The script
 * id makes it unique; the slug keeps it readable. Go scripts get a package directory each, so two
 * scripts may both declare `TestLogin` or different package names.
 */
export function scriptFilePath(framework: Framework, script: { id: number; name: string }): string {
  const base = `${slugOf(script.name)}_${script.id}`;
  switch (framework) {
    case 'browser':
      return `tests/${base}.spec.ts`;
    case 'pytest':
      return `tests/test_${base}.py`;
    case 'rust_cargo':
      return `tests/${base}.rs`;
    case 'go_test':
      return `tests/${base}/${base}_test.go`;
  }
}

/** True when a path relative to the framework dir is the file (or Go directory) of this script id. */
export function belongsToScript(framework: Framework, relPath: string, scriptId: number): boolean {
  const id = String(scriptId);
  const patterns: Record<Framework, RegExp> = {
    browser: new RegExp(`^tests/[a-z0-9_]+_${id}\\.spec\\.ts$`),
    pytest: new RegExp(`^tests/test_[a-z0-9_]+_${id}\\.py$`),
    rust_cargo: new RegExp(`^tests/[a-z0-9_]+_${id}\\.rs$`),
    go_test: new RegExp(`^tests/[a-z0-9_]+_${id}$`),
  };
  return patterns[framework].test(relPath);
}
