/**
 * The plugin API: the only import surface for plugins. Plugins import `@testkeeper/kernel` and
 * nothing deeper. tsyringe's decorators are re-exported so plugins share the kernel's container.
 */
import 'reflect-metadata';

export { injectable, inject, singleton } from 'tsyringe';
export type { DependencyContainer, InjectionToken } from 'tsyringe';
export { z } from 'zod';
export * from './errors.js';
export * from './results.js';
export * from './caller.js';
export * from './decorators.js';
export * from './extension-points.js';
export * from './plugin.js';
export * from './services.js';
export * from './tokens.js';
export * from './versions.js';
export * from './well-known.js';
export * from './runners.js';
export * from './sandbox.js';
export * from './jobs.js';
export * from './models.js';
export * from './secrets.js';
export * from './tcm.js';
export * from './schemas.js';
export type { KernelConfig } from '../config/schema.js';
