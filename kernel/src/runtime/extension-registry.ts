import { BootError } from '../plugin-api/errors.js';
import type { ExtensionPoint, ExtensionPointView } from '../plugin-api/extension-points.js';

interface Entry {
  id: string;
  pluginId: string;
  value: unknown;
}

/** Holds declared extension points and their contributions; closed once all plugins are wired. */
export class ExtensionRegistry {
  private readonly owners = new Map<string, string>();
  private readonly entries = new Map<string, Entry[]>();

  declare(point: ExtensionPoint<unknown>, pluginId: string): void {
    const owner = this.owners.get(point.id);
    if (owner) throw new BootError('duplicate_extension_point', `Extension point "${point.id}" is declared by "${owner}" and "${pluginId}"`);
    this.owners.set(point.id, pluginId);
    this.entries.set(point.id, []);
  }

  isDeclared(pointId: string): boolean {
    return this.owners.has(pointId);
  }

  add(pointId: string, id: string, pluginId: string, value: unknown): void {
    const list = this.entries.get(pointId);
    if (!list) {
      throw new BootError(
        'unknown_extension_point',
        `Plugin "${pluginId}" contributes to extension point "${pointId}", which no loaded plugin declares (known: ${[...this.owners.keys()].join(', ') || 'none'})`,
      );
    }
    const dup = list.find((e) => e.id === id);
    if (dup) throw new BootError('duplicate_extension', `"${id}" is contributed to "${pointId}" by "${dup.pluginId}" and "${pluginId}"`);
    list.push({ id, pluginId, value });
  }

  view<T>(point: ExtensionPoint<T>): ExtensionPointView<T> {
    const list = () => (this.entries.get(point.id) ?? []) as Array<{ id: string; pluginId: string; value: T }>;
    return {
      all: () => [...list()],
      ids: () => list().map((e) => e.id),
      get: (id) => list().find((e) => e.id === id)?.value,
      select: (id) => {
        const hit = list().find((e) => e.id === id);
        if (!hit) {
          throw new BootError('unknown_extension', `"${id}" is not a known ${point.id} (known: ${list().map((e) => e.id).join(', ') || 'none'})`);
        }
        return hit.value;
      },
    };
  }
}
