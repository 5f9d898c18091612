import 'reflect-metadata';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { DataSource } from 'typeorm';
import { ApiTokens, OwnershipRule, Users } from '../auth/users.js';
import { kernelEntities, kernelMigrations } from '../storage/kernel-schema.js';
import { deepMerge, loadConfig, type ConfigSources } from '../config/load.js';
import type { KernelConfig } from '../config/schema.js';
import { createLogger } from '../logger.js';
import { BootError } from '../plugin-api/errors.js';
import { isPluginDefinition } from '../plugin-api/plugin.js';
import type { PluginContext } from '../plugin-api/plugin.js';
import type { HttpRoute, Logger } from '../plugin-api/services.js';
import { Tokens } from '../plugin-api/tokens.js';
import { Invoker } from '../registry/invoker.js';
import { LiveRegistry } from '../registry/live-registry.js';
import type { InventoryFilter } from '../registry/inventory.js';
import { createDataSource, dialectOf, openDataSource } from '../storage/data-source.js';
import { runMigrations } from '../storage/migrator.js';
import { TypeormStorage } from '../storage/storage-service.js';
import { findAppRoot, kernelVersion } from './app-root.js';
import { discoverPlugins, type DiscoveredPlugin } from './discovery.js';
import { ExtensionRegistry } from './extension-registry.js';
import { collectRegistration, type Registration } from './registration.js';
import { checkHostApi, isSelected, orderByDependencies } from './selection.js';
import { buildToolDefinitions } from './toolsets.js';
import { registerKernelServices, type Disposer } from './kernel-services.js';
import { checkProviderNames } from '../models/register.js';
import { ModelProviders } from '../plugin-api/models.js';

export interface BootOptions extends Partial<ConfigSources> {
  logger?: Logger;
  /** Skip running migrations (the `migrate` command runs them explicitly). Default true. */
  migrate?: boolean;
}

interface LoadedPlugin {
  meta: DiscoveredPlugin;
  registration: Registration;
  container: DependencyContainer;
  context: PluginContext;
}

/**
 * The host: discovers and loads plugins, opens storage, runs migrations, wires DI and builds the
 * live tool registry. Transports (stdio, HTTP) sit on top and only use `invoker` and `registry`.
 */
export class Kernel {
  readonly registry: LiveRegistry;
  readonly invoker: Invoker;
  readonly routes: HttpRoute[] = [];
  readonly extensions = new ExtensionRegistry();
  users!: Users;
  tokens!: ApiTokens;
  storage!: TypeormStorage;
  private plugins: LoadedPlugin[] = [];
  private discovered: DiscoveredPlugin[] = [];
  private runtimeDisabled = new Set<string>();
  private serviceDisposers: Disposer[] = [];
  readonly version = kernelVersion();

  private constructor(
    public config: KernelConfig,
    readonly appRoot: string,
    readonly logger: Logger,
    private readonly sources: ConfigSources,
    readonly container: DependencyContainer,
  ) {
    this.registry = new LiveRegistry(this.filterFor(config));
    this.invoker = new Invoker(this.registry, logger);
  }

  static async boot(options: BootOptions = {}): Promise<Kernel> {
    const appRoot = options.appRoot ?? findAppRoot(options.env);
    const sources: ConfigSources = { appRoot, file: options.file, env: options.env, overrides: options.overrides };
    const config = resolvePaths(loadConfig(sources), appRoot);
    const logger = options.logger ?? createLogger(config.log.level);
    const kernel = new Kernel(config, appRoot, logger, sources, rootContainer.createChildContainer());
    try {
      await kernel.start(options.migrate !== false);
    } catch (err) {
      await kernel.close().catch(() => undefined);
      throw err;
    }
    return kernel;
  }

  get pluginIds(): string[] {
    return this.plugins.map((p) => p.meta.id);
  }

  get dataSource(): DataSource {
    return this.storage.dataSource;
  }

  private async start(migrate: boolean): Promise<void> {
    const { config, logger } = this;
    this.discovered = discoverPlugins(this.appRoot, config.plugins.paths);
    const selected = this.discovered.filter((p) => isSelected(p.id, config.plugins.enabled, config.plugins.disabled));
    checkHostApi(selected, this.version.hostApi);
    const ordered = orderByDependencies(selected);

    // Register phase: import each plugin and collect what it declares. No I/O of theirs yet.
    const registrations: Array<{ meta: DiscoveredPlugin; registration: Registration }> = [];
    for (const meta of ordered) {
      let mod: { default?: unknown };
      try {
        mod = await import(pathToFileURL(meta.entry).href);
      } catch (err) {
        throw new BootError('plugin_import_failed', `Plugin "${meta.id}" could not be loaded from ${meta.entry}: ${(err as Error).message}`);
      }
      const def = mod.default;
      if (!isPluginDefinition(def)) {
        throw new BootError('bad_export', `Plugin "${meta.id}" (${meta.entry}) must export default definePlugin({ id, register })`);
      }
      if (def.id !== meta.id) {
        throw new BootError('bad_export', `Plugin package declares id "${meta.id}" but its definePlugin uses id "${def.id}"`);
      }
      registrations.push({ meta, registration: collectRegistration(def.register) });
    }

    // Storage: one DataSource with every plugin's entities.
    const entities: Function[] = [...kernelEntities, ...registrations.flatMap((r) => r.registration.entities)];
    const ds = createDataSource(config, entities);
    await openDataSource(ds, config);
    this.storage = new TypeormStorage(ds, dialectOf(config));
    this.users = new Users(this.storage);
    this.tokens = new ApiTokens(this.storage, this.users, config.http.tokenCacheSeconds * 1000);
    if (migrate) await this.migrate(registrations);

    // Kernel services in the root container (of this kernel instance).
    const c = this.container;
    c.registerInstance(Tokens.Storage, this.storage);
    c.registerInstance(Tokens.Logger, logger);
    c.registerInstance(Tokens.Config, config);
    c.registerInstance(Tokens.Clock, { now: () => new Date() });
    c.registerInstance(Tokens.Users, this.users);
    c.registerInstance(Tokens.Ownership, new OwnershipRule());
    const services = await registerKernelServices(c, { config, logger, storage: this.storage, extensions: this.extensions });
    this.serviceDisposers = services.disposers;
    this.invoker.setScrubber(services.secrets);

    // Wire phase: containers, extension points, toolsets, routes.
    for (const { meta, registration } of registrations) {
      for (const p of registration.extensionPoints) this.extensions.declare(p, meta.id);
    }
    for (const { meta, registration } of registrations) {
      const child = c.createChildContainer();
      child.registerInstance(Tokens.Logger, logger.child({ plugin: meta.id }));
      for (const s of registration.services) child.registerSingleton(s.token as never, s.useClass as never);
      for (const s of registration.exported) c.registerSingleton(s.token as never, s.useClass as never);
      const context: PluginContext = {
        pluginId: meta.id,
        container: child,
        extensions: (point) => this.extensions.view(point),
        settings: config.plugins.settings[meta.id] ?? {},
      };
      this.plugins.push({ meta, registration, container: child, context });
    }
    for (const p of this.plugins) {
      for (const k of p.registration.contributions) {
        this.extensions.add(k.point.id, k.id, p.meta.id, k.factory(p.container));
      }
      for (const r of p.registration.routes) this.routes.push(typeof r === 'function' ? r(p.container) : r);
      for (const cls of p.registration.toolsets) {
        for (const def of buildToolDefinitions(p.meta.id, cls, p.container)) this.registry.add(def);
      }
    }

    checkProviderNames(config, this.extensions.view(ModelProviders));

    // Init in dependency order.
    for (const p of this.plugins) {
      for (const fn of p.registration.onInit) await fn(p.context);
    }
    this.registry.apply(this.filterFor(config));
    logger.debug({ plugins: this.pluginIds, tools: this.registry.listing().length, storage: this.storage.dialect }, 'kernel ready');
  }

  private async migrate(registrations: Array<{ meta: DiscoveredPlugin; registration: Registration }>): Promise<void> {
    const ds = this.storage.dataSource;
    const applied = await runMigrations(ds, 'kernel', kernelMigrations);
    if (applied.length) this.logger.info({ owner: 'kernel', applied }, 'migrations applied');
    for (const { meta, registration } of registrations) {
      const done = await runMigrations(ds, meta.id, registration.migrations);
      if (done.length) this.logger.info({ owner: meta.id, applied: done }, 'migrations applied');
    }
  }

  /** Everything discovered on disk, with whether it is loaded and enabled. */
  describePlugins(): Array<{ id: string; package: string; version: string; source: string; loaded: boolean; enabled: boolean }> {
    const loaded = new Set(this.pluginIds);
    return this.discovered.map((p) => ({
      id: p.id,
      package: p.packageName,
      version: p.version,
      source: p.source,
      loaded: loaded.has(p.id),
      enabled: loaded.has(p.id) && !this.runtimeDisabled.has(p.id),
    }));
  }

  /**
   * Applies a new configuration at run time (SIGHUP, `testkeeper reload`): toolsets, allow/deny,
   * read-only and plugin enable/disable. Plugins switched off keep running but expose no tools;
   * a plugin that was not loaded at boot needs a restart to load. Returns what changed.
   * `overrides` apply on top of the boot-time sources; they do not accumulate across calls.
   */
  reload(overrides?: Record<string, unknown>): { on: string[]; off: string[]; restartNeeded: string[] } {
    // Deep-merged over the boot overrides, so `{ tools: { readOnly: true } }` keeps the rest of `tools`.
    const sources = overrides ? { ...this.sources, overrides: deepMerge(this.sources.overrides ?? {}, overrides) } : this.sources;
    const next = resolvePaths(loadConfig(sources), this.appRoot);
    const loaded = new Set(this.pluginIds);
    this.runtimeDisabled = new Set(this.pluginIds.filter((id) => !isSelected(id, next.plugins.enabled, next.plugins.disabled)));
    const restartNeeded = this.discovered
      .filter((p) => !loaded.has(p.id) && isSelected(p.id, next.plugins.enabled, next.plugins.disabled))
      .map((p) => p.id);
    this.config = next;
    const change = this.registry.apply(this.filterFor(next));
    if (restartNeeded.length) this.logger.warn({ plugins: restartNeeded }, 'newly enabled plugins load at the next restart');
    this.logger.info({ ...change }, 'configuration reloaded');
    return { ...change, restartNeeded };
  }

  private filterFor(config: KernelConfig): InventoryFilter {
    return {
      toolsets: config.tools.toolsets,
      allow: config.tools.allow,
      deny: config.tools.deny,
      readOnly: config.tools.readOnly,
      disabledPlugins: this.runtimeDisabled,
    };
  }

  async close(): Promise<void> {
    for (const p of [...this.plugins].reverse()) {
      for (const fn of p.registration.onDispose) {
        try {
          await fn(p.context);
        } catch (err) {
          this.logger.error({ err, plugin: p.meta.id }, 'plugin dispose failed');
        }
      }
    }
    this.plugins = [];
    for (const dispose of this.serviceDisposers.reverse()) {
      try {
        await dispose();
      } catch (err) {
        this.logger.error({ err }, 'kernel service dispose failed');
      }
    }
    this.serviceDisposers = [];
    if (this.storage?.dataSource.isInitialized) await this.storage.dataSource.destroy();
    this.container.dispose?.();
  }
}

function resolvePaths(config: KernelConfig, appRoot: string): KernelConfig {
  return { ...config, dataDir: path.resolve(appRoot, config.dataDir) };
}
