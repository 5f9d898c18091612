/** Runs async tasks one after another. Used to serialize SQLite transactions on one connection. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    // The queue continues whether the task failed or not; the caller still sees the failure.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
