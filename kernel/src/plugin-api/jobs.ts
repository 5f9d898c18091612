/**
 * Kernel service (Tokens.Jobs): durable background jobs shared by every pack.
 * States: queued → running → passed | failed | error | timed_out | cancelled.
 */
export type JobState = 'queued' | 'running' | 'passed' | 'failed' | 'error' | 'timed_out' | 'cancelled';

export interface JobRecord<P = unknown, R = unknown> {
  id: string;
  kind: string;
  owner_id: number;
  state: JobState;
  payload: P;
  result: R | null;
  error: string | null;
  progress: { progress: number; total?: number; message?: string } | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  attempts: number;
}

export interface JobControl {
  signal: AbortSignal;
  progress(progress: number, total?: number, message?: string): Promise<void>;
}

export interface JobKindOptions<P> {
  /** Jobs with the same key never run at the same time (e.g. one generation per user). */
  concurrencyKey?(payload: P, ownerId: number): string;
  timeoutMs?: number;
}

export interface JobQueue {
  /** Declares a job kind and its handler; call in a plugin's onInit. The handler's return is the result. */
  define<P, R>(kind: string, handler: (job: JobRecord<P, R>, control: JobControl) => Promise<R>, options?: JobKindOptions<P>): void;
  enqueue<P>(kind: string, payload: P, ownerId: number): Promise<JobRecord<P>>;
  /** The job if it belongs to the owner; null otherwise (missing and foreign look the same). */
  get<P = unknown, R = unknown>(id: string, ownerId: number): Promise<JobRecord<P, R> | null>;
  /** Resolves when the job reaches a terminal state or the timeout passes. */
  waitFor(id: string, timeoutMs: number): Promise<JobRecord | null>;
  /**
   * Progress of a job running in this process, as it happens (a job run by another worker is only
   * seen through `get`). Returns the unsubscribe function.
   */
  watch?(id: string, listener: (progress: NonNullable<JobRecord['progress']>) => void): () => void;
}
