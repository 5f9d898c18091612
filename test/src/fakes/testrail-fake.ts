import { HttpFake, sendJson, type RecordedRequest } from './http-fake.js';

export interface FakeSuite {
  id: number;
  name: string;
  cases: Array<Record<string, unknown>>;
}

/**
 * Loopback fake of TestRail API v2 (reference §2): the method lives in the query string after
 * `index.php?` with further parameters joined by `&`; HTTP Basic auth; errors as `{"error": ...}`
 * (400 invalid entity, 401 bad auth); bulk endpoints either enveloped (`{offset, limit, size,
 * _links:{next, prev}, <key>: [...]}`) or bare arrays (older servers); 429 with Retry-After.
 */
export class TestRailFake {
  /** `enveloped` (6.7+) or `bare` (older servers: arrays, no pages). */
  listShape: 'enveloped' | 'bare' = 'enveloped';
  /** Page size the fake uses (TestRail: 250). */
  pageSize = 250;
  /** The next N requests answer 429 with `Retry-After: retryAfter`. */
  rateLimitNext = 0;
  retryAfter = 1;
  readonly projects = new Map<number, FakeSuite[]>();
  priorities: Array<Record<string, unknown>> = [
    { id: 1, name: '1 - Low', short_name: '1 - Low', is_default: false, priority: 1 },
    { id: 2, name: '2 - Medium', short_name: '2 - Med', is_default: true, priority: 2 },
    { id: 3, name: '3 - High', short_name: '3 - High', is_default: false, priority: 3 },
    { id: 4, name: '4 - Critical', short_name: '4 - Crit', is_default: false, priority: 4 },
  ];

  readonly http: HttpFake;

  constructor(
    readonly user: string,
    readonly apiKey: string,
  ) {
    this.http = new HttpFake((req, res) => {
      const r = this.route(req);
      sendJson(res, r.status, r.body, r.headers);
    });
  }

  get url(): string {
    return this.http.url;
  }

  get requests(): RecordedRequest[] {
    return this.http.requests;
  }

  start() {
    return this.http.start().then(() => this);
  }

  stop() {
    return this.http.stop();
  }

  private route(req: RecordedRequest): { status: number; body: unknown; headers?: Record<string, string> } {
    const expected = 'Basic ' + Buffer.from(`${this.user}:${this.apiKey}`).toString('base64');
    if (req.headers.authorization !== expected) {
      return { status: 401, body: { error: 'Authentication failed: invalid or missing user/password or session cookie.' } };
    }
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      return { status: 429, body: { error: 'API Rate Limit Exceeded' }, headers: { 'retry-after': String(this.retryAfter) } };
    }
    const q = req.url.split('index.php?')[1];
    if (!q || req.method !== 'GET') return { status: 404, body: { error: 'Unknown endpoint' } };
    const [method, ...paramParts] = q.replace(/^\/api\/v2\//, '').split('&');
    const params = new URLSearchParams(paramParts.join('&'));
    const [name, arg] = method!.split('/');
    if (name === 'get_priorities') return { status: 200, body: this.priorities };
    const projectId = Number(arg);
    const suites = this.projects.get(projectId);
    if (!suites) return { status: 400, body: { error: 'Field :project_id is not a valid or accessible project.' } };
    if (name === 'get_suites') return this.list('get_suites', projectId, 'suites', suites.map(({ cases: _c, ...s }) => ({ ...s, project_id: projectId, url: '', is_master: false, is_baseline: false, is_completed: false, completed_on: null })), params);
    if (name === 'get_cases') {
      const suiteId = params.get('suite_id');
      if (!suiteId && suites.length > 1) return { status: 400, body: { error: 'Field :suite_id is a required field.' } };
      const suite = suiteId ? suites.find((s) => s.id === Number(suiteId)) : suites[0];
      if (!suite) return { status: 400, body: { error: 'Field :suite_id is not a valid test suite.' } };
      return this.list('get_cases', projectId, 'cases', suite.cases.map((c) => ({ suite_id: suite.id, ...c })), params, suiteId ? `&suite_id=${suiteId}` : '');
    }
    return { status: 404, body: { error: `Unknown method ${name}` } };
  }

  private list(method: string, projectId: number, key: string, all: unknown[], params: URLSearchParams, extra = '') {
    if (this.listShape === 'bare') return { status: 200, body: all };
    const limit = Math.min(Number(params.get('limit') ?? this.pageSize) || this.pageSize, this.pageSize);
    const offset = Number(params.get('offset') ?? 0);
    const items = all.slice(offset, offset + limit);
    const next = offset + limit < all.length ? `/api/v2/${method}/${projectId}${extra}&limit=${limit}&offset=${offset + limit}` : null;
    const prev = offset > 0 ? `/api/v2/${method}/${projectId}${extra}&limit=${limit}&offset=${Math.max(0, offset - limit)}` : null;
    return { status: 200, body: { offset, limit, size: items.length, _links: { next, prev }, [key]: items } };
  }
}
