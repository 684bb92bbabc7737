/** The semaphore bounding concurrent image work: at most `limit` at once, first come first served, slots freed on failure. */
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../../../templates/runtime/upload/image.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, the others in arrival order', async () => {
    const semaphore = new Semaphore(2);
    const release: Array<() => void> = [];
    const started: number[] = [];
    let peak = 0;
    const tasks = Array.from({ length: 6 }, (_, i) =>
      semaphore.run(async () => {
        started.push(i);
        peak = Math.max(peak, semaphore.running);
        await new Promise<void>((resolve) => release.push(resolve));
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(semaphore.waiting).toBe(4);
    while (release.length > 0) {
      release.shift()!();
      await tick();
    }
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(semaphore.running).toBe(0);
  });

  it('a failing task frees its slot', async () => {
    const semaphore = new Semaphore(1);
    await expect(semaphore.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await semaphore.run(async () => 'next')).toBe('next');
    expect(semaphore.running).toBe(0);
  });

  it('refuses a limit below 1', () => {
    expect(() => new Semaphore(0)).toThrow('positive integer');
  });
});
