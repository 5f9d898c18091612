/** `Authorization: Bearer <token>` parsing and the RFC 6750 challenge sent with a 401. */

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The token of a well-formed Bearer header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = BEARER.exec(header);
  return m ? m[1]! : null;
}

/**
 * The WWW-Authenticate value: without credentials only the scheme and realm (RFC 6750 §3.1: no
 * error code when the request had none); with a bad token, `invalid_token`.
 */
export function bearerChallenge(problem: 'missing' | 'invalid'): string {
  if (problem === 'missing') return 'Bearer realm="testkeeper"';
  return 'Bearer realm="testkeeper", error="invalid_token", error_description="The token is unknown or revoked"';
}
