import type { DependencyContainer } from 'tsyringe';
import type { KernelConfig } from '../config/schema.js';
import type { ExtensionPointView } from '../plugin-api/extension-points.js';
import { ModelProviders, type ModelProvider } from '../plugin-api/models.js';
import type { SecretStore } from '../plugin-api/secrets.js';
import type { Logger } from '../plugin-api/services.js';
import { Tokens } from '../plugin-api/tokens.js';
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
 * `kernel.models`. `models.providers` orders them; unknown names are reported at first use.
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
  let warned = false;
  const providers = (): NamedProvider[] => {
    const view = deps.contributions?.();
    const out: NamedProvider[] = [];
    const missing: string[] = [];
    for (const name of cfg.providers) {
      const provider = builtIn[name] ?? view?.get(name);
      if (provider) out.push({ name, provider });
      else if (name !== 'openai_compatible') missing.push(name);
    }
    if (missing.length && !warned) {
      warned = true;
      deps.logger.warn({ missing, known: [...Object.keys(builtIn), ...(view?.ids() ?? [])] }, 'models.providers names unknown providers');
    }
    return out;
  };
  const service = new DefaultModelService({ providers, defaultTimeoutMs: cfg.timeoutMs, logger: deps.logger, scrub: (t) => deps.secrets.scrub(t) });
  c.registerInstance(Tokens.Models, service);
  return service;
}

export { ModelProviders };
