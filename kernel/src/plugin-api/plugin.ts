import type { DependencyContainer, InjectionToken } from 'tsyringe';
import type { MigrationInterface } from 'typeorm';
import type { ExtensionPoint, ExtensionPointView } from './extension-points.js';
import type { HttpRoute } from './services.js';

type Class<T = unknown> = new (...args: any[]) => T;

/** What a plugin's `init` and `dispose` receive. */
export interface PluginContext {
  readonly pluginId: string;
  readonly container: DependencyContainer;
  /** The contributions to an extension point this plugin owns or reads. */
  extensions<T>(point: ExtensionPoint<T>): ExtensionPointView<T>;
  /** This plugin's settings: config `plugins.settings.<id>`. */
  readonly settings: Record<string, unknown>;
}

/**
 * The declarative registration surface. `register` is synchronous and does no I/O: it only lists
 * what the plugin brings. The kernel wires everything after all plugins registered.
 */
export interface PluginRegistrar {
  /** Toolset classes (decorated with @Toolset and @Tool). */
  toolsets(...classes: Class[]): void;
  /** TypeORM entity classes. Table names must start with the plugin id. */
  entities(...classes: Function[]): void;
  /** Migrations, run in order and tracked in the plugin's own `<id>_migrations` table. */
  migrations(...classes: Class<MigrationInterface>[]): void;
  /** A private service of this plugin (its child container). */
  service<T>(token: InjectionToken<T>, useClass: Class<T>): void;
  /** A service other plugins may inject (registered in the root container). */
  exportService<T>(token: InjectionToken<T>, useClass: Class<T>): void;
  /** Declares an extension point this plugin owns. */
  extensionPoint<T>(point: ExtensionPoint<T>): void;
  /** Adds a contribution; the factory runs after all plugins registered, in this plugin's container. */
  contribute<T>(point: ExtensionPoint<T>, id: string, factory: (container: DependencyContainer) => T): void;
  /** HTTP routes under /webhooks/. */
  routes(...routes: Array<HttpRoute | ((container: DependencyContainer) => HttpRoute)>): void;
  onInit(fn: (ctx: PluginContext) => Promise<void> | void): void;
  onDispose(fn: (ctx: PluginContext) => Promise<void> | void): void;
}

export interface PluginDefinition {
  readonly id: string;
  register(reg: PluginRegistrar): void;
}

const PLUGIN_BRAND = Symbol.for('testkeeper.plugin');

/** The default export of every plugin package. */
export function definePlugin(def: PluginDefinition): PluginDefinition {
  if (!/^[a-z][a-z0-9-]{0,39}$/.test(def.id)) {
    throw new Error(`Plugin id "${def.id}" must be lower-case letters, digits and dashes, starting with a letter`);
  }
  return Object.freeze({ ...def, [PLUGIN_BRAND]: true });
}

export function isPluginDefinition(value: unknown): value is PluginDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_BRAND] === true;
}
