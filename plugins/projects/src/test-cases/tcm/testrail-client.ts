import { ToolError, type TcmCredentials } from '@testkeeper/kernel';

/** TestRail's page size maximum (reference: 250). */
export const PAGE_SIZE = 250;
const MAX_PAGES = 2000;
const MAX_ATTEMPTS = 5;
/** Longest Retry-After we are willing to sleep through inside one tool call. */
const MAX_RETRY_AFTER_S = 60;

export interface TestRailOptions {
  /** Seconds → ms; tests shorten waits. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  scrub?: (text: string) => string;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

/**
 * TestRail API v2 over HTTP Basic auth. Paths follow `index.php?/api/v2/<method>`, so further
 * parameters are joined with `&`. 429 honours Retry-After (seconds); 5xx is retried with backoff.
 */
export class TestRailClient {
  private readonly base: string;
  private readonly auth: string;

  constructor(
    creds: TcmCredentials,
    private readonly opts: TestRailOptions = {},
  ) {
    this.base = `${creds.base_url.replace(/\/+$/, '')}/index.php?/api/v2/`;
    this.auth = 'Basic ' + Buffer.from(`${creds.username}:${creds.api_key}`).toString('base64');
  }

  async get(path: string, signal?: AbortSignal): Promise<unknown> {
    const sleep = this.opts.sleep ?? defaultSleep;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(this.base + path, { headers: { authorization: this.auth, 'content-type': 'application/json' }, signal });
      } catch (err) {
        signal?.throwIfAborted();
        throw upstream(`TestRail at ${new URL(this.base).host} could not be reached: ${(err as Error).message}`, 'Check the saved base_url and that the server is reachable.');
      }
      if (res.status === 429 && attempt < MAX_ATTEMPTS) {
        const wait = Math.min(Number(res.headers.get('retry-after')) || 1, MAX_RETRY_AFTER_S);
        await res.arrayBuffer();
        await sleep(wait * 1000, signal);
        continue;
      }
      if ([500, 502, 503, 504].includes(res.status) && attempt < 3) {
        await res.arrayBuffer();
        await sleep(250 * 2 ** attempt, signal);
        continue;
      }
      const text = await res.text();
      if (res.status === 200) {
        try {
          return JSON.parse(text);
        } catch {
          throw upstream('TestRail returned a response that is not JSON', 'Check that base_url points at the TestRail instance root.');
        }
      }
      throw this.failure(res.status, text);
    }
  }

  /** Every item of a bulk endpoint, in both list shapes: a bare array, or `{<key>: [...], _links: {next}}`. */
  async getAll<T>(path: string, key: string, signal?: AbortSignal): Promise<T[]> {
    const out: T[] = [];
    let next: string | null = `${path}&limit=${PAGE_SIZE}&offset=0`;
    for (let page = 0; next && page < MAX_PAGES; page++) {
      const body = (await this.get(next, signal)) as unknown;
      if (Array.isArray(body)) return [...out, ...(body as T[])]; // older servers: no envelope, no pages
      const env = body as { _links?: { next?: string | null } } & Record<string, unknown>;
      const items = env[key];
      if (!Array.isArray(items)) throw upstream(`TestRail's ${path.split('/')[0]} response has no "${key}" list`, 'Check the TestRail version (6.7+ or a bare-array server).');
      out.push(...(items as T[]));
      // `_links.next` is "/api/v2/get_cases/1&limit=250&offset=250": strip the prefix, keep the rest.
      next = env._links?.next ? env._links.next.replace(/^\/?(?:index\.php\?)?\/?api\/v2\//, '').replace(/([&?])limit=0\b/, `$1limit=${PAGE_SIZE}`) : null;
    }
    return out;
  }

  private failure(status: number, text: string): ToolError {
    let message = text.slice(0, 300);
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? message;
    } catch {
      /* keep the raw text */
    }
    message = this.opts.scrub ? this.opts.scrub(message) : message;
    if (status === 401) return upstream(`TestRail rejected the saved credentials: ${message}`, 'Save a valid username and API key with save_tcm_credentials.');
    if (status === 403) return upstream(`TestRail denied access: ${message}`, 'The saved TestRail user needs read access to that project.');
    if (status === 400) return new ToolError('invalid_argument', `TestRail: ${message}`, 'Check tcm_project_id and tcm_suite_id.');
    if (status === 429) return new ToolError('unavailable', 'TestRail is still rate limiting after several retries', 'Try again in a minute.');
    if (status === 409) return new ToolError('unavailable', 'TestRail is in maintenance', 'Try again later.');
    return upstream(`TestRail answered ${status}: ${message}`, 'Try again later; check base_url if it persists.');
  }
}

const upstream = (message: string, hint: string) => new ToolError('upstream_error', message, hint);
