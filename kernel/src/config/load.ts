import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { BootError } from '../plugin-api/errors.js';
import { configSchema, type KernelConfig } from './schema.js';

export interface ConfigSources {
  appRoot: string;
  /** `--config FILE`. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** Programmatic overrides (tests), applied last. */
  overrides?: Record<string, unknown>;
}

/** Deep merge of plain objects; arrays and scalars are replaced. */
export function deepMerge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    const prev = out[k];
    out[k] =
      isPlainObject(prev) && isPlainObject(v) ? deepMerge(prev, v) : v;
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readJson(file: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    if (!isPlainObject(parsed)) throw new Error('the top level must be an object');
    return parsed;
  } catch (err) {
    throw new BootError('config_unreadable', `Cannot read config file ${file}: ${(err as Error).message}`);
  }
}

/** true/1 and false/0; anything else is passed on as text so validation names the key. */
function envBoolean(value: string): boolean | string {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return value;
}

/** Environment variables that override config keys. */
function envOverrides(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const set = (keys: string[], value: unknown) => {
    let node = o;
    for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>;
    node[keys[keys.length - 1]!] = value;
  };
  if (env.TESTKEEPER_DATA_DIR) set(['dataDir'], env.TESTKEEPER_DATA_DIR);
  if (env.TESTKEEPER_STORAGE_URL) set(['storage', 'url'], env.TESTKEEPER_STORAGE_URL);
  if (env.TESTKEEPER_PORT) set(['http', 'port'], Number(env.TESTKEEPER_PORT));
  if (env.TESTKEEPER_HOST) set(['http', 'host'], env.TESTKEEPER_HOST);
  if (env.TESTKEEPER_HTTP_AUTH) set(['http', 'auth'], env.TESTKEEPER_HTTP_AUTH);
  if (env.TESTKEEPER_LOG_LEVEL) set(['log', 'level'], env.TESTKEEPER_LOG_LEVEL);
  if (env.TESTKEEPER_READ_ONLY) set(['tools', 'readOnly'], envBoolean(env.TESTKEEPER_READ_ONLY));
  if (env.TESTKEEPER_SECRET_KEY) set(['secrets', 'key'], env.TESTKEEPER_SECRET_KEY);
  if (env.TESTKEEPER_MODEL_BASE_URL) set(['models', 'baseUrl'], env.TESTKEEPER_MODEL_BASE_URL);
  if (env.TESTKEEPER_MODEL) set(['models', 'model'], env.TESTKEEPER_MODEL);
  if (env.TESTKEEPER_MODEL_API_KEY) set(['models', 'apiKey'], env.TESTKEEPER_MODEL_API_KEY);
  return o;
}

/**
 * Layers: built-in defaults < config/default.json < config/<NODE_ENV>.json < config/local.json
 * < --config FILE < environment < overrides. An invalid result names the offending key.
 */
export function loadConfig(src: ConfigSources): KernelConfig {
  const env = src.env ?? process.env;
  const dir = path.join(src.appRoot, 'config');
  const layers: Record<string, unknown>[] = [];
  for (const name of ['default.json', env.NODE_ENV ? `${env.NODE_ENV}.json` : '', 'local.json']) {
    if (!name) continue;
    const file = path.join(dir, name);
    if (existsSync(file)) layers.push(readJson(file));
  }
  const explicit = src.file ?? env.TESTKEEPER_CONFIG;
  if (explicit) {
    const file = path.resolve(explicit);
    if (!existsSync(file)) throw new BootError('config_missing', `Config file ${file} does not exist`);
    layers.push(readJson(file));
  }
  layers.push(envOverrides(env));
  if (src.overrides) layers.push(src.overrides);
  const merged = layers.reduce((acc, l) => deepMerge(acc, l), {} as Record<string, unknown>);
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) throw new BootError('config_invalid', describeConfigIssues(parsed.error));
  return parsed.data;
}

function describeConfigIssues(error: z.ZodError): string {
  return (
    'Invalid configuration: ' +
    error.issues
      .map((i) => {
        const key = i.path.join('.') || '(root)';
        const keys = 'keys' in i && Array.isArray(i.keys) ? ` (${i.keys.join(', ')})` : '';
        return `${key}: ${i.message}${keys}`;
      })
      .join('; ')
  );
}
