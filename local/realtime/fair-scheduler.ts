/** One piece of work for one connection (reading one change as one set of claims). */
export type Task = () => Promise<void>;

/**
 * Each connection's work in a queue of its own, run in order within the
 * connection and taking turns between connections: one task per connection at
 * a time, at most `concurrency` tasks at once, and a connection that just ran
 * goes to the back of the line. A connection with a thousand channels then
 * delays another's next event by one of its tasks, not by all of them.
 */
export class FairScheduler<K> {
  private readonly queues = new Map<K, Task[]>();
  /** Connections with work waiting and none running, in the order of their turns. */
  private readonly ready: K[] = [];
  private readonly running = new Set<K>();
  private active = 0;
  private readonly idle: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Adds a task at the end of the connection's queue; returns how many of its tasks now wait. */
  enqueue(key: K, task: Task): number {
    let queue = this.queues.get(key);
    if (!queue) {
      queue = [];
      this.queues.set(key, queue);
    }
    queue.push(task);
    if (queue.length === 1 && !this.running.has(key)) this.ready.push(key);
    this.pump();
    return queue.length;
  }

  /** Forgets the connection's waiting tasks (it closed); a running one finishes on its own. */
  drop(key: K): void {
    this.queues.delete(key);
    const index = this.ready.indexOf(key);
    if (index >= 0) this.ready.splice(index, 1);
  }

  pending(key: K): number {
    return this.queues.get(key)?.length ?? 0;
  }

  /** Drops every waiting task and resolves once the running ones have finished. */
  async stop(): Promise<void> {
    this.queues.clear();
    this.ready.length = 0;
    while (this.active > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (this.active < this.concurrency && this.ready.length > 0) {
      const key = this.ready.shift()!;
      const queue = this.queues.get(key);
      const task = queue?.shift();
      if (!task) continue;
      if (queue!.length === 0) this.queues.delete(key);
      this.active += 1;
      this.running.add(key);
      void task()
        .catch(this.onError)
        .finally(() => {
          this.active -= 1;
          this.running.delete(key);
          if ((this.queues.get(key)?.length ?? 0) > 0) this.ready.push(key);
          if (this.active === 0) for (const resolve of this.idle.splice(0)) resolve();
          this.pump();
        });
    }
  }
}
