import type { DependencyContainer, InjectionToken } from 'tsyringe';
import type { MigrationInterface } from 'typeorm';
import type { ExtensionPoint } from '../plugin-api/extension-points.js';
import type { PluginContext, PluginRegistrar } from '../plugin-api/plugin.js';
import type { HttpRoute } from '../plugin-api/services.js';

type Class<T = unknown> = new (...args: any[]) => T;

/** Everything one plugin declared in `register`, collected as data. */
export interface Registration {
  toolsets: Class[];
  entities: Function[];
  migrations: Class<MigrationInterface>[];
  services: Array<{ token: InjectionToken<unknown>; useClass: Class }>;
  exported: Array<{ token: InjectionToken<unknown>; useClass: Class }>;
  extensionPoints: ExtensionPoint<unknown>[];
  contributions: Array<{ point: ExtensionPoint<unknown>; id: string; factory: (c: DependencyContainer) => unknown }>;
  routes: Array<HttpRoute | ((c: DependencyContainer) => HttpRoute)>;
  onInit: Array<(ctx: PluginContext) => Promise<void> | void>;
  onDispose: Array<(ctx: PluginContext) => Promise<void> | void>;
}

export function collectRegistration(register: (reg: PluginRegistrar) => void): Registration {
  const r: Registration = {
    toolsets: [],
    entities: [],
    migrations: [],
    services: [],
    exported: [],
    extensionPoints: [],
    contributions: [],
    routes: [],
    onInit: [],
    onDispose: [],
  };
  const reg: PluginRegistrar = {
    toolsets: (...c) => void r.toolsets.push(...c),
    entities: (...c) => void r.entities.push(...c),
    migrations: (...c) => void r.migrations.push(...c),
    service: (token, useClass) => void r.services.push({ token, useClass }),
    exportService: (token, useClass) => void r.exported.push({ token, useClass }),
    extensionPoint: (p) => void r.extensionPoints.push(p),
    contribute: (point, id, factory) => void r.contributions.push({ point, id, factory }),
    routes: (...routes) => void r.routes.push(...routes),
    onInit: (fn) => void r.onInit.push(fn),
    onDispose: (fn) => void r.onDispose.push(fn),
  };
  const result = register(reg) as unknown;
  if (result instanceof Promise) throw new Error('register() must be synchronous: do I/O in onInit');
  return r;
}
