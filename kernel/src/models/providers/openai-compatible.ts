import type { ModelProvider } from '../../plugin-api/models.js';

export interface OpenAiCompatibleOptions {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` (Ollama), a vLLM server. */
  baseUrl: string;
  model: string;
  /** Resolved per call so a key saved in the secrets store is picked up without a restart. */
  apiKey: () => Promise<string | null>;
}

/** Error from the endpoint, with the HTTP status; the body is cut short and never holds the key. */
export class ModelEndpointError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ModelEndpointError';
  }
}

/** An OpenAI-compatible `POST {baseUrl}/chat/completions` endpoint (OpenAI, Ollama, vLLM, ...). */
export function openAiCompatibleProvider(opts: OpenAiCompatibleOptions): ModelProvider {
  const url = opts.baseUrl.replace(/\/+$/, '') + '/chat/completions';
  return {
    available: () => true,
    async complete(req) {
      const key = await opts.apiKey();
      const signals = [AbortSignal.timeout(req.timeoutMs), ...(req.signal ? [req.signal] : [])];
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({
          model: opts.model,
          messages: [
            { role: 'system', content: req.system },
            { role: 'user', content: req.prompt },
          ],
          max_tokens: req.maxTokens,
          temperature: 0.2,
          stream: false,
        }),
        signal: AbortSignal.any(signals),
      });
      const raw = await res.text();
      if (!res.ok) {
        let detail = raw.slice(0, 200);
        try {
          detail = JSON.parse(raw)?.error?.message ?? detail;
        } catch {
          /* not JSON: keep the text */
        }
        throw new ModelEndpointError(res.status, `model endpoint answered ${res.status}: ${detail}`);
      }
      let body: { model?: string; choices?: Array<{ message?: { content?: unknown } }> };
      try {
        body = JSON.parse(raw);
      } catch {
        throw new ModelEndpointError(res.status, 'model endpoint returned a body that is not JSON');
      }
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new ModelEndpointError(res.status, 'model endpoint returned no choices[0].message.content');
      return { text: content, model: body.model ?? opts.model };
    },
  };
}
