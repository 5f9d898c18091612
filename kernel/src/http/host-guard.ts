/**
 * DNS-rebinding protection: a browser tricked into sending requests to this server carries a
 * foreign Host (and Origin). Only the names the operator expects are accepted.
 */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.includes(host) || /^127\./.test(host);
}

export interface HostGuardOptions {
  bindHost: string;
  allowedHosts: string[];
  allowedOrigins: string[];
}

/** Hostname part of a Host header value (`[::1]:3000` → `[::1]`, `a.b:80` → `a.b`). */
export function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const i = h.lastIndexOf(':');
  return i === -1 ? h : h.slice(0, i);
}

export class HostGuard {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;
  readonly acceptsAnyHost: boolean;
  private readonly loopbackBind: boolean;

  constructor(opts: HostGuardOptions) {
    this.loopbackBind = isLoopbackHost(opts.bindHost);
    const configured = opts.allowedHosts.map((h) => h.toLowerCase());
    this.hosts = new Set([...configured, ...configured.map(hostnameOf)]);
    if (this.loopbackBind) for (const n of LOOPBACK_NAMES) this.hosts.add(n);
    else if (opts.bindHost !== '0.0.0.0' && opts.bindHost !== '::') this.hosts.add(opts.bindHost.toLowerCase());
    // A wildcard bind with no allowed hosts cannot know its public names: accept any (warned at start).
    this.acceptsAnyHost = !this.loopbackBind && configured.length === 0 && (opts.bindHost === '0.0.0.0' || opts.bindHost === '::');
    this.origins = new Set(opts.allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, '')));
  }

  hostAllowed(hostHeader: string | undefined): boolean {
    if (this.acceptsAnyHost) return true;
    if (!hostHeader) return false;
    const full = hostHeader.trim().toLowerCase();
    return this.hosts.has(full) || this.hosts.has(hostnameOf(full));
  }

  originAllowed(origin: string | undefined): boolean {
    if (!origin) return true; // not a browser request
    const o = origin.toLowerCase().replace(/\/$/, '');
    if (this.origins.has(o)) return true;
    try {
      const url = new URL(o);
      const name = url.hostname.startsWith('[') ? url.hostname : url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname;
      return this.loopbackBind && isLoopbackHost(name);
    } catch {
      return false;
    }
  }
}
