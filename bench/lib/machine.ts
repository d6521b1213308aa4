import { execFileSync } from 'node:child_process';
import { cpus, totalmem, platform, release } from 'node:os';

/** Where and when a figure was measured: results without their machine and commit mean little. */
export interface MachineInfo {
  date: string;
  commit: string;
  /** True when the working tree had uncommitted changes at the time of the run. */
  dirty: boolean;
  cpu: string;
  cores: number;
  memoryGb: number;
  os: string;
  node: string;
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    date: new Date().toISOString(),
    commit: git(['rev-parse', '--short', 'HEAD']) ?? 'unknown',
    dirty: (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== '',
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${platform()} ${release()}`,
    node: process.version,
  };
}

export function machineLine(m: MachineInfo): string {
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node} — commit ${m.commit}${m.dirty ? ' (+ uncommitted changes)' : ''}, ${m.date.slice(0, 16).replace('T', ' ')} UTC`;
}
