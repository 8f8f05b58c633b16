import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * CPU time used by processes, read from /proc (Linux): user plus system time.
 * On a shared machine wall-clock figures mostly measure waiting for a core;
 * CPU time per request is what a change to the code moves.
 */
let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Milliseconds of CPU the process has used so far, or null when it cannot be read (gone, or not Linux). */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields after it are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / clockTicks();
  } catch {
    return null;
  }
}

/** CPU used by a set of processes between two readings; processes that ended in between are not counted. */
export class CpuMeter {
  private readonly start = new Map<number, number>();

  constructor(pids: number[]) {
    for (const pid of pids) {
      const used = processCpuMs(pid);
      if (used !== null) this.start.set(pid, used);
    }
  }

  /** CPU ms since construction of the given processes (those seen at the start count from their start reading, new ones from zero). */
  usedSince(pids: number[]): number {
    let total = 0;
    for (const pid of new Set(pids)) {
      const now = processCpuMs(pid);
      if (now === null) continue;
      total += now - (this.start.get(pid) ?? 0);
    }
    return total;
  }
}
