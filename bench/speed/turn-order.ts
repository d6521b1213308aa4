/**
 * `npx tsx bench/speed/turn-order.ts [--runs 5]`: in which order a Chromium worker runs the calls already queued at
 * it and a task it asks for — a MessageChannel turn (admission.ts's macrotaskTurns, the WAL keeper's checkpoint task)
 * or a setTimeout 0 (slices.ts's yield). Store/wal-keeper.ts counts on a turn asked for after a COMMIT running after
 * the calls that reached the worker before it, and before the ones that arrive later.
 *
 *   - "queued": the worker is busy 30 ms while the page posts two calls (B, C); then it asks for both tasks.
 *   - "nested": it asks for both from inside the seventh nested setTimeout (where HTML clamps timers to 4 ms: a
 *     clean-up slice's code runs there), while the page posts a call every 2 ms.
 *
 * Prints each run's order as the worker saw it. Debian's Chromium, headless (chromium.ts); nothing is written.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { launchBenchChromium } from './chromium';

const WORKER = `
const order = [];
const ch = new MessageChannel();
ch.port1.onmessage = () => order.push('turn');
const busy = (ms) => { const t = performance.now(); while (performance.now() - t < ms); };
const ask = (label) => { ch.port2.postMessage(null); setTimeout(() => order.push('timeout0'), 0); order.push(label); };
self.onmessage = (e) => {
  if (e.data === 'queued') { busy(30); ask('queued'); }
  else if (e.data === 'nested') {
    let depth = 0;
    const step = () => { if (++depth < 7) { busy(1); setTimeout(step, 0); } else { busy(10); ask('nested'); } };
    setTimeout(step, 0);
  } else if (e.data === 'report') { self.postMessage(order.splice(0)); }
  else if (e.data === 'ping') { self.postMessage('ready'); }
  else order.push(e.data);
};`;

/** Starts the worker, asks it for `kind`, posts the calls meanwhile, and returns the order the worker saw. */
const PAGE = `async (src, kind) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
  // Started and listening first: messages posted while a worker still loads all wait for its first task.
  await new Promise((resolve) => { w.onmessage = resolve; w.postMessage('ping'); });
  w.postMessage(kind);
  await sleep(kind === 'queued' ? 5 : 10);
  if (kind === 'queued') ['B', 'C'].forEach((m) => w.postMessage(m));
  else for (let j = 0; j < 20; j++, await sleep(2)) w.postMessage('m' + j);
  await sleep(150);
  const seen = await new Promise((resolve) => { w.onmessage = (e) => resolve(e.data); w.postMessage('report'); });
  w.terminate();
  return seen;
}`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const context = await launchBenchChromium(join(tmpdir(), 'engram-turn-order'));
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setContent('<p>turn order</p>');
    for (const kind of ['queued', 'nested'] as const) {
      for (let i = 0; i < Number(values.runs); i++) {
        // A string, not a function: tsx would wrap the page's named functions in a helper the page does not have.
        const order = (await page.evaluate(`(${PAGE})(${JSON.stringify(WORKER)}, '${kind}')`)) as string[];
        console.log(`${kind}: ${order.join(' → ')}`);
      }
    }
  } finally {
    await context.close();
  }
}

void main();
