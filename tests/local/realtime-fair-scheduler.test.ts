import { describe, expect, it } from 'vitest';
import { FairScheduler } from '../../local/realtime/fair-scheduler.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('realtime fair scheduler', () => {
  it("serves a quiet connection's one task after one task of a busy connection, not after all of them", async () => {
    const ran: string[] = [];
    const scheduler = new FairScheduler<string>(1, (error) => {
      throw error;
    });
    for (let index = 0; index < 100; index += 1) {
      scheduler.enqueue('hog', async () => {
        await tick();
        ran.push(`hog-${index}`);
      });
    }
    await new Promise<void>((resolve) =>
      scheduler.enqueue('honest', async () => {
        ran.push('honest');
        resolve();
      }),
    );
    expect(ran).toEqual(['hog-0', 'honest']);
    await scheduler.stop();
  });

  it("keeps each connection's tasks in the order they were queued, one at a time", async () => {
    const ran: string[] = [];
    let running = 0;
    let overlapped = false;
    const scheduler = new FairScheduler<string>(4, (error) => {
      throw error;
    });
    const done = new Promise<void>((resolve) => {
      for (let index = 0; index < 20; index += 1) {
        scheduler.enqueue('one', async () => {
          running += 1;
          if (running > 1) overlapped = true;
          await tick();
          ran.push(`one-${index}`);
          running -= 1;
          if (index === 19) resolve();
        });
      }
    });
    await done;
    expect(overlapped).toBe(false);
    expect(ran).toEqual(Array.from({ length: 20 }, (_, index) => `one-${index}`));
  });
});
