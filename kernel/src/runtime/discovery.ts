import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { BootError } from '../plugin-api/errors.js';

/** A plugin package found on disk, before anything of it is loaded. */
export interface DiscoveredPlugin {
  id: string;
  packageName: string;
  version: string;
  dir: string;
  entry: string;
  hostApi: string;
  dependsOn: string[];
  /** Where it was found: an installed dependency or a configured folder. */
  source: 'installed' | 'path';
}

interface Manifest {
  name?: string;
  version?: string;
  main?: string;
  exports?: unknown;
  dependencies?: Record<string, string>;
  testkeeper?: { plugin?: unknown; hostApi?: unknown; dependsOn?: unknown };
}

function readManifest(dir: string): Manifest | null {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch (err) {
    throw new BootError('bad_manifest', `${file} is not valid JSON: ${(err as Error).message}`);
  }
}

function entryOf(dir: string, m: Manifest): string {
  const e = m.exports;
  let rel: string | undefined;
  if (typeof e === 'string') rel = e;
  else if (e && typeof e === 'object') {
    const dot = (e as Record<string, unknown>)['.'];
    if (typeof dot === 'string') rel = dot;
    else if (dot && typeof dot === 'object') {
      const d = dot as Record<string, unknown>;
      rel = (d.import ?? d.default) as string | undefined;
    }
  }
  return path.resolve(dir, rel ?? m.main ?? 'index.js');
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Turns a package folder into a DiscoveredPlugin, or null if it is not a Testkeeper plugin. */
export function inspectPackage(dir: string, source: DiscoveredPlugin['source']): DiscoveredPlugin | null {
  const m = readManifest(dir);
  const tk = m?.testkeeper;
  if (!m || !tk || tk.plugin === undefined) return null;
  const where = path.join(dir, 'package.json');
  if (typeof tk.plugin !== 'string' || !/^[a-z][a-z0-9-]{0,39}$/.test(tk.plugin)) {
    throw new BootError('bad_manifest', `${where}: "testkeeper.plugin" must be a lower-case id (letters, digits, dashes)`);
  }
  if (typeof tk.hostApi !== 'string') {
    throw new BootError('bad_manifest', `${where}: "testkeeper.hostApi" must be a version range such as "^1"`);
  }
  const deps = tk.dependsOn ?? [];
  if (!Array.isArray(deps) || deps.some((d) => typeof d !== 'string')) {
    throw new BootError('bad_manifest', `${where}: "testkeeper.dependsOn" must be an array of plugin ids`);
  }
  return {
    id: tk.plugin,
    packageName: m.name ?? path.basename(dir),
    version: m.version ?? '0.0.0',
    dir,
    entry: entryOf(dir, m),
    hostApi: tk.hostApi,
    dependsOn: deps as string[],
    source,
  };
}

/**
 * Finds plugins among the app's declared dependencies (workspace packs are linked into
 * node_modules by npm; third-party packs are installed there) and in extra configured folders.
 * Only declared dependencies are read, not all of node_modules, to keep start-up fast.
 */
export function discoverPlugins(appRoot: string, extraPaths: string[]): DiscoveredPlugin[] {
  const found: DiscoveredPlugin[] = [];
  const app = readManifest(appRoot);
  for (const name of Object.keys(app?.dependencies ?? {})) {
    const dir = path.join(appRoot, 'node_modules', name);
    if (!existsSync(dir)) continue;
    const p = inspectPackage(realpathSync(dir), 'installed');
    if (p) found.push(p);
  }
  for (const raw of extraPaths) {
    const given = path.resolve(appRoot, raw);
    if (!existsSync(given) || !statSync(given).isDirectory()) {
      throw new BootError('plugin_path_missing', `plugins.paths entry ${given} is not a folder`);
    }
    // Real paths, like installed packages, so one package reached two ways is not a duplicate.
    const dir = realpathSync(given);
    const self = inspectPackage(dir, 'path');
    if (self) {
      found.push(self);
      continue;
    }
    for (const child of readdirSync(dir, { withFileTypes: true })) {
      if (!child.isDirectory() && !(child.isSymbolicLink() && isDirectory(path.join(dir, child.name)))) continue;
      const p = inspectPackage(realpathSync(path.join(dir, child.name)), 'path');
      if (p) found.push(p);
    }
  }
  const byId = new Map<string, DiscoveredPlugin>();
  for (const p of found) {
    const prev = byId.get(p.id);
    if (prev && prev.dir !== p.dir) {
      throw new BootError('duplicate_plugin', `Plugin id "${p.id}" is provided by ${prev.dir} and by ${p.dir}`);
    }
    byId.set(p.id, p);
  }
  return [...byId.values()];
}
