import type { ModelProvider } from '../../plugin-api/models.js';

/** The connected MCP client's own model, through `sampling/createMessage`. */
export const samplingProvider: ModelProvider = {
  available: (task) => task.sampling !== undefined,
  async complete(req) {
    if (!req.sampling) throw new Error('the client did not declare the sampling capability');
    const res = await req.sampling.createMessage({
      systemPrompt: req.system,
      prompt: req.prompt,
      maxTokens: req.maxTokens,
      temperature: 0.2,
      // The SDK request is cancelled too when the deadline passes, not just abandoned.
      signal: AbortSignal.any([AbortSignal.timeout(req.timeoutMs), ...(req.signal ? [req.signal] : [])]),
    });
    return { text: res.text, model: res.model };
  },
};
