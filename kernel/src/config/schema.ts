import { z } from 'zod';

const globList = z.array(z.string().min(1));

/** The whole configuration, with defaults. Unknown keys are rejected so typos surface at start. */
export const configSchema = z
  .object({
    /** Data directory: SQLite file, frameworks, key file. Relative paths resolve against the app root. */
    dataDir: z.string().min(1).default('./data'),
    storage: z
      .object({
        /** `postgres://...` switches to PostgreSQL; absent means the embedded SQLite file. */
        url: z.string().url().optional(),
        sqliteFile: z.string().default('testkeeper.db'),
        /** Log every SQL statement (debug only). */
        logging: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    http: z
      .object({
        host: z.string().default('127.0.0.1'),
        port: z.number().int().min(0).max(65535).default(3000),
        /** `token` requires a bearer token; `none` is only accepted on a loopback bind. */
        auth: z.enum(['token', 'none']).default('token'),
        /** Extra Host header values accepted besides the bind address (DNS-rebinding protection). */
        allowedHosts: z.array(z.string()).default([]),
        /** Origins accepted on browser requests; loopback origins are always accepted on a loopback bind. */
        allowedOrigins: z.array(z.string()).default([]),
        maxBodyBytes: z.number().int().positive().default(1_048_576),
        sessionIdleSeconds: z.number().positive().default(900),
        maxSessions: z.number().int().positive().default(1000),
        /** How long a verified token is trusted before it is looked up again (revocation delay). */
        tokenCacheSeconds: z.number().min(0).default(5),
      })
      .strict()
      .prefault({}),
    stdio: z.object({ user: z.string().min(1).default('local') }).strict().prefault({}),
    plugins: z
      .object({
        /** Globs of plugin ids to load. */
        enabled: globList.default(['*']),
        /** Globs of plugin ids not to load; wins over `enabled`. */
        disabled: globList.default([]),
        /** Extra folders: each is a plugin package, or holds plugin packages one level down. */
        paths: z.array(z.string()).default([]),
        /** Per-plugin settings, by plugin id. */
        settings: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
      })
      .strict()
      .prefault({}),
    tools: z
      .object({
        /** Toolset ids to enable (globs). */
        toolsets: globList.default(['*']),
        /** Tool names enabled even when their toolset is not. */
        allow: z.array(z.string()).default([]),
        /** Tool names never enabled. Wins over everything but read-only. */
        deny: z.array(z.string()).default([]),
        /** Only tools annotated readOnlyHint: true. */
        readOnly: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    log: z
      .object({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info') })
      .strict()
      .prefault({}),
    /** Model service (kernel.models). Env: TESTKEEPER_MODEL_BASE_URL, TESTKEEPER_MODEL, TESTKEEPER_MODEL_API_KEY. */
    models: z
      .object({
        /** Providers tried in order; the deterministic engine always answers last. */
        providers: z.array(z.string().min(1)).default(['mcp_sampling', 'openai_compatible']),
        timeoutMs: z.number().int().positive().default(30_000),
        /** An OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM). */
        baseUrl: z.string().url().optional(),
        model: z.string().min(1).optional(),
        /** Prefer TESTKEEPER_MODEL_API_KEY or the server-wide secret `models:api_key` over a key in a file. */
        apiKey: z.string().min(1).optional(),
      })
      .strict()
      .prefault({}),
    /** Secrets store: base64 32-byte key; else TESTKEEPER_SECRET_KEY; else `<dataDir>/secret.key`. */
    secrets: z.object({ key: z.string().min(1).optional() }).strict().prefault({}),
  })
  .strict();

export type KernelConfig = z.output<typeof configSchema>;
export type KernelConfigInput = z.input<typeof configSchema>;
