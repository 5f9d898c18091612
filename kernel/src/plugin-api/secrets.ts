import type { EntityManager } from 'typeorm';

/**
 * Kernel service (Tokens.Secrets): encrypted secrets (AES-256-GCM). Values are never returned to
 * clients after creation; known values are scrubbed from outputs and logs.
 */
export interface SecretStore {
  /** Stores (or replaces) a secret under a namespaced key, e.g. `tcm:project:12`. */
  put(ownerId: number, key: string, value: string): Promise<void>;
  get(ownerId: number, key: string): Promise<string | null>;
  delete(ownerId: number, key: string): Promise<void>;
  has(ownerId: number, key: string): Promise<boolean>;
  /** Deletes a key for every owner, inside `em` when given (e.g. a project deletion). */
  purge(key: string, em?: EntityManager): Promise<void>;
  /** Replaces every known secret value in text with a mask. */
  scrub(text: string): string;
  /** Adds a value held elsewhere (an env-provided API key) to the values `scrub` masks. */
  remember(value: string): void;
  /** Whether any value is known to scrub (lets hot paths skip serializing for nothing). */
  readonly scrubbing: boolean;
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}
