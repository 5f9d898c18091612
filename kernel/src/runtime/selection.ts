import picomatch from 'picomatch';
import semver from 'semver';
import { BootError } from '../plugin-api/errors.js';
import type { DiscoveredPlugin } from './discovery.js';

export function isSelected(id: string, enabled: string[], disabled: string[]): boolean {
  return picomatch.isMatch(id, enabled) && !(disabled.length && picomatch.isMatch(id, disabled));
}

/** Checks the host API range of every plugin against this kernel's API version. */
export function checkHostApi(plugins: DiscoveredPlugin[], hostApi: string): void {
  for (const p of plugins) {
    if (!semver.validRange(p.hostApi)) {
      throw new BootError('bad_manifest', `Plugin "${p.id}" declares hostApi "${p.hostApi}", which is not a version range`);
    }
    if (!semver.satisfies(hostApi, p.hostApi)) {
      throw new BootError(
        'host_api_mismatch',
        `Plugin "${p.id}" (${p.packageName}@${p.version}) needs host API ${p.hostApi}, but this server provides ${hostApi}`,
      );
    }
  }
}

/**
 * Orders plugins so each comes after its dependencies (init order; dispose runs in reverse).
 * A dependency that is not loaded, or a cycle, stops boot.
 */
export function orderByDependencies(plugins: DiscoveredPlugin[]): DiscoveredPlugin[] {
  const byId = new Map(plugins.map((p) => [p.id, p]));
  for (const p of plugins) {
    for (const d of p.dependsOn) {
      if (!byId.has(d)) {
        throw new BootError(
          'missing_dependency',
          `Plugin "${p.id}" depends on "${d}", which is not installed or not enabled (check plugins.enabled / plugins.disabled)`,
        );
      }
    }
  }
  const out: DiscoveredPlugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: DiscoveredPlugin, trail: string[]) => {
    const s = state.get(p.id);
    if (s === 'done') return;
    if (s === 'visiting') throw new BootError('dependency_cycle', `Plugin dependency cycle: ${[...trail, p.id].join(' -> ')}`);
    state.set(p.id, 'visiting');
    for (const d of p.dependsOn) visit(byId.get(d)!, [...trail, p.id]);
    state.set(p.id, 'done');
    out.push(p);
  };
  for (const p of [...plugins].sort((a, b) => a.id.localeCompare(b.id))) visit(p, []);
  return out;
}
