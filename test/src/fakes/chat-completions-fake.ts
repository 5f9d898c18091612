import { HttpFake, sendJson } from './http-fake.js';

/** What the fake answers next: a model reply, an HTTP error, a stall, or a broken body. */
export type ChatMode =
  | { kind: 'reply'; content: string }
  | { kind: 'error'; status: number; message: string }
  | { kind: 'stall'; ms: number; content: string }
  | { kind: 'not_json' }
  | { kind: 'no_choices' };

/**
 * Loopback fake of the OpenAI chat-completions API (`POST /v1/chat/completions`), the shape OpenAI,
 * Ollama and vLLM share: `{model, messages, max_tokens}` in, `{id, object, model, choices:
 * [{index, message:{role, content}, finish_reason}], usage}` out, errors as `{error:{message, type}}`.
 */
export class ChatCompletionsFake {
  mode: ChatMode = { kind: 'reply', content: '{}' };
  readonly http = new HttpFake(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return sendJson(res, 404, { error: { message: `Unknown route ${req.url}`, type: 'invalid_request_error' } });
    const m = this.mode;
    if (m.kind === 'error') return sendJson(res, m.status, { error: { message: m.message, type: 'server_error' } });
    if (m.kind === 'not_json') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html>gateway</html>');
    }
    if (m.kind === 'no_choices') return sendJson(res, 200, { id: 'x', object: 'chat.completion', choices: [] });
    if (m.kind === 'stall') await new Promise((r) => setTimeout(r, m.ms));
    const model = (JSON.parse(req.body) as { model?: string }).model ?? 'unknown';
    sendJson(res, 200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: m.content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
  });

  get baseUrl(): string {
    return `${this.http.url}/v1`;
  }

  get requests() {
    return this.http.requests;
  }

  start() {
    return this.http.start().then(() => this);
  }

  stop() {
    return this.http.stop();
  }
}
