/**
 * What a worker's thread did between its start-up marks (issue 16 item 3), from a Chrome trace with the CPU profiler
 * on (cold-ab.ts --trace): the DB worker and bare.worker.ts make each stage a `performance.mark('engram:<stage>')`
 * (engine/host/startup-marks.ts), so the stages fall on the trace's own clock, and between each two of them this
 * lists the wall ms, the sampled busy and idle ms, the long V8 tasks overlapping it (module compile / evaluation,
 * calls, GC) and the call tree of the samples inside it (nodes ≥ `minMs`, a chain of single callers shown once).
 */

export interface TimelineEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: {
    name?: string;
    data?: { startTime?: number; cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[]; url?: string };
  };
}

export interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

const MARK_PREFIX = 'engram:';
const TASKS = new Set(['v8.compileModule', 'v8.evaluateModule', 'v8.callFunction', 'v8.compile', 'MajorGC', 'MinorGC']);

/** The thread's samples in time order: when each was taken (trace µs), for how long it stands (µs), its leaf node. */
function samplesOf(events: readonly TimelineEvent[], thread: string): { nodes: Map<number, ProfileNode>; samples: { ts: number; dt: number; leaf: number }[] } {
  const nodes = new Map<number, ProfileNode>();
  const samples: { ts: number; dt: number; leaf: number }[] = [];
  // A profile is announced by a 'Profile' event on the sampled thread; its chunks come from the profiler's thread.
  for (const p of events.filter((e) => e.name === 'Profile' && e.id && `${e.pid}:${e.tid}` === thread)) {
    let ts = p.args?.data?.startTime ?? p.ts;
    const leaves: number[] = [];
    const deltas: number[] = [];
    for (const c of events) {
      if (c.name !== 'ProfileChunk' || c.id !== p.id) continue;
      for (const n of c.args?.data?.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
      leaves.push(...(c.args?.data?.cpuProfile?.samples ?? []));
      deltas.push(...(c.args?.data?.timeDeltas ?? []));
    }
    for (let i = 0; i < leaves.length; i++) {
      ts += deltas[i] ?? 0;
      samples.push({ ts, dt: deltas[i + 1] ?? 0, leaf: leaves[i]! });
    }
  }
  return { nodes, samples };
}

const frameName = (n: ProfileNode) => `${n.callFrame.functionName || '(anon)'} ${(n.callFrame.url ?? '').split('/').pop()}:${(n.callFrame.lineNumber ?? -1) + 1}`;

/** The threads that made start-up marks, each with its marks (stage → trace µs) in order. */
export function startupMarksInTrace(events: readonly TimelineEvent[]): Map<string, [string, number][]> {
  const out = new Map<string, [string, number][]>();
  for (const e of events) {
    if (!e.name.startsWith(MARK_PREFIX) || !(e.cat ?? '').includes('blink.user_timing')) continue;
    const key = `${e.pid}:${e.tid}`;
    out.set(key, [...(out.get(key) ?? []), [e.name.slice(MARK_PREFIX.length), e.ts]]);
  }
  for (const marks of out.values()) marks.sort((a, b) => a[1] - b[1]);
  return out;
}

/** Each window between two consecutive start-up marks of `thread`, as text lines. */
export function startupTimeline(events: readonly TimelineEvent[], thread: string, minMs = 2): string[] {
  const marks = startupMarksInTrace(events).get(thread) ?? [];
  const { nodes, samples } = samplesOf(events, thread);
  const tasks = events.filter((e) => TASKS.has(e.name) && `${e.pid}:${e.tid}` === thread && (e.dur ?? 0) >= 1000);
  const lines: string[] = [];
  for (let w = 0; w + 1 < marks.length; w++) {
    const [from, t0] = marks[w]!;
    const [to, t1] = marks[w + 1]!;
    const inside = samples.filter((s) => s.ts >= t0 && s.ts < t1);
    const idle = inside.filter((s) => nodes.get(s.leaf)?.callFrame.functionName === '(idle)').reduce((a, s) => a + s.dt, 0);
    const busy = inside.reduce((a, s) => a + s.dt, 0) - idle;
    lines.push(`${from} → ${to}: ${((t1 - t0) / 1000).toFixed(1)} ms wall, sampled busy ${(busy / 1000).toFixed(1)}, idle ${(idle / 1000).toFixed(1)}`);
    for (const e of tasks) {
      const overlap = Math.min(e.ts + e.dur!, t1) - Math.max(e.ts, t0);
      if (overlap < 1000) continue;
      const url = e.args?.data?.url?.split('/').pop() ?? '';
      lines.push(`  task +${((e.ts - t0) / 1000).toFixed(1)} ms: ${e.name} ${url} ${(e.dur! / 1000).toFixed(1)} ms (${(overlap / 1000).toFixed(1)} inside)`);
    }
    // The window's call tree: inclusive µs per node over the samples inside it.
    const incl = new Map<number, number>();
    for (const s of inside) {
      if (nodes.get(s.leaf)?.callFrame.functionName === '(idle)') continue;
      for (let n = nodes.get(s.leaf); n; n = n.parent === undefined ? undefined : nodes.get(n.parent)) incl.set(n.id, (incl.get(n.id) ?? 0) + s.dt);
    }
    const children = new Map<number, ProfileNode[]>();
    for (const n of nodes.values()) if (n.parent !== undefined && incl.has(n.id)) children.set(n.parent, [...(children.get(n.parent) ?? []), n]);
    const walk = (n: ProfileNode, depth: number, chain: string[]) => {
      const t = incl.get(n.id) ?? 0;
      if (t < minMs * 1000) return;
      const kids = (children.get(n.id) ?? []).filter((c) => (incl.get(c.id) ?? 0) >= minMs * 1000).sort((a, b) => (incl.get(b.id) ?? 0) - (incl.get(a.id) ?? 0));
      const names = [...chain, frameName(n)];
      // A node whose one shown callee carries (nearly) all of its time is folded into that callee's line.
      if (kids.length === 1 && t - (incl.get(kids[0]!.id) ?? 0) < minMs * 1000) return walk(kids[0]!, depth, names);
      lines.push(`  ${'  '.repeat(depth)}${(t / 1000).toFixed(1)} ${names.length > 3 ? [names[0], '…', names[names.length - 1]].join(' › ') : names.join(' › ')}`);
      for (const c of kids) walk(c, depth + 1, []);
    };
    const root = [...nodes.values()].find((n) => n.parent === undefined);
    const top = (children.get(root?.id ?? -1) ?? []).sort((a, b) => (incl.get(b.id) ?? 0) - (incl.get(a.id) ?? 0));
    for (const c of top) walk(c, 0, []);
  }
  return lines;
}
