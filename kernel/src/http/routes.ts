import type { HttpRoute } from '../plugin-api/services.js';

/** Matches `deploy/:token` style patterns against a path below /webhooks/. */
export function matchRoute(routes: HttpRoute[], method: string, rest: string): { route: HttpRoute; params: Record<string, string> } | null {
  const parts = rest.split('/').filter(Boolean);
  for (const route of routes) {
    if (route.method !== method) continue;
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < pattern.length; i++) {
      const p = pattern[i]!;
      if (p.startsWith(':')) {
        const value = safeDecode(parts[i]!);
        if (value === null) return null; // malformed %-escape: no route can match it
        params[p.slice(1)] = value;
      } else if (p !== parts[i]) {
        ok = false;
        break;
      }
    }
    if (ok) return { route, params };
  }
  return null;
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
