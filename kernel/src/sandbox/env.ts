import os from 'node:os';
import path from 'node:path';

/**
 * Variables a test subprocess inherits from the server. Everything else (database URLs, tokens,
 * keys, cloud credentials) stays behind; toolchain variables are passed only so cargo, go and
 * pyenv-style shims find their installation.
 */
export const INHERITED_ENV = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'USER',
  'LOGNAME',
  'SHELL',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'GOROOT',
  'GOPATH',
  'GOMODCACHE',
  'GOPROXY',
  'GOFLAGS',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'VIRTUAL_ENV',
] as const;

/** Names no subprocess ever sees, even when a caller passes them as extras. */
const FORBIDDEN_PREFIX = 'TESTKEEPER_';

/**
 * The subprocess environment: allowlisted server variables, the per-run TMPDIR, then the caller's
 * extras (e.g. BASE_URL, CARGO_TARGET_DIR). Defaults fill what toolchains expect to find in HOME.
 */
export function buildSandboxEnv(source: NodeJS.ProcessEnv, tmpDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  const home = env.HOME ?? os.homedir();
  env.HOME = home;
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  env.LANG ??= 'C.UTF-8';
  // rustup's proxies locate toolchains through these; pin them so a changed HOME cannot break it.
  env.CARGO_HOME ??= path.join(home, '.cargo');
  env.RUSTUP_HOME ??= path.join(home, '.rustup');
  env.TMPDIR = tmpDir;
  for (const [name, value] of Object.entries(extra)) {
    if (name.toUpperCase().startsWith(FORBIDDEN_PREFIX)) continue;
    env[name] = value;
  }
  return env;
}
