import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import type { Logger as PinoLogger } from 'pino';
import type { Caller } from './caller.js';

export type Logger = PinoLogger;

/** Storage shared by all packs. Reads may use `manager`; every write goes through `write`. */
export interface StorageService {
  readonly dialect: 'sqlite' | 'postgres';
  readonly dataSource: DataSource;
  readonly manager: EntityManager;
  repo<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T>;
  /**
   * A plain SQL read with `?` placeholders (rewritten to `$1..$n` on PostgreSQL). For hot paths:
   * it skips TypeORM's query builder, which costs ~10x the query itself on SQLite. Do not put a
   * literal `?` inside string constants of such SQL.
   */
  query<R = Record<string, unknown>>(sql: string, params?: unknown[], em?: EntityManager): Promise<R[]>;
  /** Runs `work` in a transaction. On SQLite transactions are serialized through one queue. */
  write<T>(work: (em: EntityManager) => Promise<T>): Promise<T>;
  /**
   * `UPDATE ... SET values, version = next WHERE id = ? AND version = expected`, checking that exactly
   * one row changed. Returns false when the version did not match (or the row is gone).
   */
  guardedUpdate<T extends ObjectLiteral>(
    em: EntityManager,
    entity: EntityTarget<T>,
    id: number,
    expectedVersion: string,
    values: Partial<T>,
    nextVersion: string,
  ): Promise<boolean>;
}

/** Clock, injectable so tests can move time. */
export interface Clock {
  now(): Date;
}

/** Users as the kernel knows them. */
export interface UserDirectory {
  findByName(username: string): Promise<{ id: number; username: string } | null>;
  ensureUser(username: string): Promise<{ id: number; username: string }>;
}

/**
 * The one ownership rule: an object is visible to the caller who owns it. A missing object and
 * another user's object produce the same `not_found` error, so ids cannot be probed.
 */
export interface Ownership {
  requireOwned<T extends { owner_id: number }>(caller: Caller, kind: string, id: unknown, row: T | null | undefined): T;
}

/** Registers extra HTTP routes on the kernel's server (webhooks). */
export interface HttpRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below `/webhooks/`, e.g. `deploy/:token`. */
  path: string;
  /** Raw body bytes are passed so signatures can be verified over them. */
  handle(req: { params: Record<string, string>; headers: Record<string, string | string[] | undefined>; rawBody: Buffer }): Promise<{
    status: number;
    body?: unknown;
  }>;
}

export interface ProjectRef {
  id: number;
  owner_id: number;
  name: string;
}

/**
 * Project access shared with every pack. The projects plugin provides it; other packs depend on
 * `projects` and inject it to check that a project id belongs to the caller.
 */
export interface ProjectAccess {
  /** The caller's project, or `not_found` (for missing and foreign projects alike). */
  requireProject(caller: Caller, projectId: number): Promise<ProjectRef>;
}

/** A test case as other packs see it (code generation, runs, memory). */
export interface TestCaseView {
  id: number;
  project_id: number;
  title: string;
  description: string;
  detailed_instructions: string;
  preconditions: string;
  steps: Array<{ step: string; expected?: string; resource_id?: string }>;
  priority: string;
  category: string;
  tags: string[];
  status: string;
  version: string;
}

/** Provided by the projects plugin (Tokens.TestCases): read access with the ownership check. */
export interface TestCaseReader {
  /** The caller's test case, or `not_found` (missing and foreign alike). */
  requireTestCase(caller: Caller, testCaseId: number): Promise<TestCaseView>;
}

/**
 * Provided by the projects plugin (Tokens.ProjectMemory): durable learnings with provenance.
 * Later packs record verified runs through it.
 */
export interface ProjectMemoryWriter {
  record(entry: {
    project_id: number;
    owner_id: number;
    kind: 'learning' | 'verified_run' | 'negotiation';
    text: string;
    test_case_id?: number | null;
    source: string;
    source_ref?: string | null;
  }): Promise<{ id: number }>;
}
