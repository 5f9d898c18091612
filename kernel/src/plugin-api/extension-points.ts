/**
 * A typed handle for an extension point. The owning plugin declares it; contributors add values
 * keyed by id during `register`; the owner reads them in `init` or later, when they are closed.
 */
export interface ExtensionPoint<T> {
  readonly id: string;
  /** Phantom field that carries the contribution type. */
  readonly __type?: T;
}

export function createExtensionPoint<T>(id: string): ExtensionPoint<T> {
  return Object.freeze({ id });
}

/** Read access to the contributions of one extension point. */
export interface ExtensionPointView<T> {
  /** All contributions, in plugin load order. */
  all(): Array<{ id: string; pluginId: string; value: T }>;
  /** The contribution with this id, or a boot/config error listing the known ids. */
  select(id: string): T;
  get(id: string): T | undefined;
  ids(): string[];
}
