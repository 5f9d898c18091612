import type { DependencyContainer } from 'tsyringe';
import type { KernelConfig } from '../config/schema.js';
import type { ExtensionPointView } from '../plugin-api/extension-points.js';
import { ModelProviders, type ModelProvider } from '../plugin-api/models.js';
import type { SecretStore } from '../plugin-api/secrets.js';
import type { Logger } from '../plugin-api/services.js';
import { Tokens } from '../plugin-api/tokens.js';
import { BootError } from '../plugin-api/errors.js';
import { DefaultModelService, type NamedProvider } from './model-service.js';
import { openAiCompatibleProvider } from './providers/openai-compatible.js';
import { samplingProvider } from './providers/sampling.js';

/** Server-wide secret (owner 0) that holds the model endpoint's API key. */
export const MODEL_API_KEY_SECRET = 'models:api_key';

export interface ModelDeps {
  config: KernelConfig;
  logger: Logger;
  secrets: SecretStore;
  /** The `kernel.models` contributions (third-party providers). */
  contributions?: () => ExtensionPointView<ModelProvider>;
}

/**
 * The model service (Tokens.Models). Built-in providers: `mcp_sampling` (the client's model) and
 * `openai_compatible` (when a base URL and model are configured); plugins add more through
 * `kernel.models`. `models.providers` orders them; unknown names stop boot (checkProviderNames).
 */
export function registerModels(c: DependencyContainer, deps: ModelDeps): DefaultModelService {
  // TESTKEEPER_MODEL_BASE_URL / TESTKEEPER_MODEL / TESTKEEPER_MODEL_API_KEY arrive through the config loader.
  const cfg = deps.config.models;
  const { baseUrl, model } = cfg;
  const envKey = cfg.apiKey;
  if (envKey) deps.secrets.remember(envKey);
  const builtIn: Record<string, ModelProvider> = { mcp_sampling: samplingProvider };
  if (baseUrl && model) {
    builtIn.openai_compatible = openAiCompatibleProvider({
      baseUrl,
      model,
      apiKey: async () => envKey ?? (await deps.secrets.get(0, MODEL_API_KEY_SECRET)),
    });
  }
  const providers = (): NamedProvider[] => {
    const view = deps.contributions?.();
    const out: NamedProvider[] = [];
    for (const name of cfg.providers) {
      // An unconfigured openai_compatible is simply skipped; other names were checked at boot.
      const provider = builtIn[name] ?? view?.get(name);
      if (provider) out.push({ name, provider });
    }
    return out;
  };
  const service = new DefaultModelService({ providers, defaultTimeoutMs: cfg.timeoutMs, logger: deps.logger, scrub: (t) => deps.secrets.scrub(t) });
  c.registerInstance(Tokens.Models, service);
  return service;
}

const BUILT_IN_PROVIDERS = ['mcp_sampling', 'openai_compatible'];

/**
 * Runs once contributions are closed: a `models.providers` name that neither the kernel nor a
 * plugin provides is a boot error listing the known ones (a typo would otherwise silently fall
 * back to the deterministic engine forever).
 */
export function checkProviderNames(config: KernelConfig, view: ExtensionPointView<ModelProvider>): void {
  const known = [...BUILT_IN_PROVIDERS, ...view.ids()];
  const unknown = config.models.providers.filter((n) => !known.includes(n));
  if (unknown.length) {
    throw new BootError('unknown_extension', `models.providers names ${unknown.map((n) => `"${n}"`).join(', ')}, which is not a known kernel.models provider (known: ${known.join(', ')})`);
  }
}

export { ModelProviders };
