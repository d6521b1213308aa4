/**
 * Where the DB worker allocates — garbage included — while stall.ts's jobs run (issue 16 item 5: the reindex's
 * longest foreground waits were the worker's garbage collector, stall-profile.ts). V8's sampling heap profiler over
 * CDP (worker-cdp.ts), with the objects minor and major GCs collected kept in the sample, then the bytes by
 * allocating function and its three callers, largest first. The run has no import (importUrl null): the reindex
 * and the probe's calls are most of it. A build as stall-ab.ts makes them (`--minify false` names the functions):
 * `BENCH_PORT=4194 tsx bench/speed/stall-alloc.ts --root /tmp/stall-ab --variant A --turns 10000`.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBenchChromium } from './chromium';
import { serveStatic } from './serve';
import type { BenchApi } from './page';
import { bootWithDbWorker } from './worker-cdp';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    variant: { type: 'string', default: 'A' },
    turns: { type: 'string', default: '10000' },
    'interval-bytes': { type: 'string', default: '8192' },
    out: { type: 'string', default: '/tmp/stall-alloc.heapprofile' },
  },
});
if (!values.root) throw new Error('--root <dir holding one harness build per variant> is required');
const root = resolve(values.root);
const PORT = Number(process.env.BENCH_PORT ?? 4191);

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}

const server = await serveStatic(root, PORT);
const dir = join(root, `alloc-${process.pid}`);
const context = await launchBenchChromium(dir);
try {
  const { page, send } = await bootWithDbWorker(context, `http://127.0.0.1:${PORT}/${values.variant}/index.html?prefill=${encodeURIComponent(`/prefill-${values.turns}.sqlite3`)}`);
  type Bench = { engramBench: BenchApi };
  await send('HeapProfiler.enable');
  const started = (await send('HeapProfiler.startSampling', {
    samplingInterval: Number(values['interval-bytes']),
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  })) as { error?: unknown };
  if (started.error) throw new Error(`HeapProfiler.startSampling: ${JSON.stringify(started.error)}`);
  const stalls = await page.evaluate(() => (window as unknown as Bench).engramBench.stalls({ importUrl: null, exportChunks: 0 }));
  const { profile } = (await send('HeapProfiler.stopSampling')) as { profile: { head: Node } };
  writeFileSync(values.out!, JSON.stringify(profile));
  for (const s of stalls) console.log(`${s.job}: ${Math.round(s.jobMs)} ms, longest wait ${Math.round(s.maxWaitMs)} ms, ${s.probes} probes ${JSON.stringify(s.detail)}`);
  const bytes = new Map<string, number>();
  const walk = (n: Node, callers: string[]): void => {
    const f = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
    const key = [f, ...callers].slice(0, 4);
    if (n.selfSize) bytes.set(key.join(' < '), (bytes.get(key.join(' < ')) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c, key);
  };
  walk(profile.head, []);
  const mb = (b: number) => (b / 2 ** 20).toFixed(2);
  console.log(`allocated ${mb([...bytes.values()].reduce((a, b) => a + b, 0))} MB in all`);
  for (const [k, v] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${mb(v)} MB ${k}`);
} finally {
  await context.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
