/** Who is calling. Every handler gets one; ownership checks compare `userId`. */
export interface Caller {
  userId: number;
  username: string;
  /** How the caller authenticated: the stdio local user, an API token, or an unauthenticated loopback bind. */
  via: 'stdio' | 'token' | 'none' | 'test';
}

/** What a handler may use beyond its arguments. */
export interface ToolContext {
  caller: Caller;
  /** Short id that appears in logs of this call and in `internal` errors. */
  requestId: string;
  signal: AbortSignal;
  /** Sends `notifications/progress` when the client gave a progressToken; otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** The connected MCP client's sampling, when it declared the capability. */
  sampling?: SamplingChannel;
}

export interface SamplingChannel {
  createMessage(request: {
    systemPrompt?: string;
    prompt: string;
    maxTokens: number;
    temperature?: number;
    signal?: AbortSignal;
  }): Promise<{ model: string; text: string }>;
}
