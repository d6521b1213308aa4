/**
 * Importing a 10,000-conversation ChatGPT export (issue 14 "done when"), through the engine exactly as
 * the backup page and `engram import --from chatgpt` drive it: import.preview (the file read piece by
 * piece and planned), then import.applyStep until done, then import.finish — on the Node host's file
 * database (better-sqlite3, WAL), as the installed command runs it.
 *
 *   node --expose-gc --import tsx bench/import-chatgpt.bench.ts [--conversations 10000] [--seed 14]
 *
 * The export is generated here (deterministic PRNG; ChatGPT's public shape: a message tree per
 * conversation with a system node, tool calls, a regenerated branch every fifth conversation) and never
 * written to the repository. Measured:
 *   - time of the preview, of the steps, in total; messages per second
 *   - peak memory of the process (RSS, sampled every 20 ms) and its baseline before the file existed
 *   - the longest stall of other calls: a second caller stores a chat turn (message.append, as the chat
 *     does while the person goes on talking) every 25 ms throughout; the longest time one of its calls
 *     waited for its answer. Each call of either caller goes through
 *     a macrotask hop (setImmediate), as a worker's message port delivers them in the app — without it,
 *     an in-process promise chain would never let the other caller in.
 * Writes bench/results/import-chatgpt.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { driveImport, type Caller } from '../src/lib/engine/imports/drive';
import type { Engine } from '../src/lib/engine/engine';
import { openFileEngine } from '../src/lib/node/open-file-db';
import { NOUNS, TOPICS_EN, TOPICS_ZH, VERBS } from './lib/corpus-vocab';
import { machineInfo, machineLine } from './lib/machine';
import { createPrng, type Prng } from './lib/prng';
import { percentile } from './lib/stats';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CONVERSATIONS = arg('conversations', 10_000);
const SEED = arg('seed', 14);
/** 0 turns the other caller off (to see the import's own speed). */
const PROBE = arg('probe', 1);
const START = Date.UTC(2023, 0, 1) / 1000;

function sentence(rng: Prng): string {
  const symbol = `${rng.pick(VERBS)}${rng.pick(NOUNS)}`;
  return rng.chance(0.3)
    ? `关于${rng.pick(TOPICS_ZH)}，${symbol} 在第 ${rng.int(1, 400)} 行报错，我们试过重启但没有用。`
    : `About ${rng.pick(TOPICS_EN)}: ${symbol} fails on line ${rng.int(1, 400)} after the ${rng.int(2, 9)}th retry, and we already tried restarting it.`;
}
const text = (rng: Prng, n: number) => Array.from({ length: n }, () => sentence(rng)).join(' ');

/** One conversation in ChatGPT's export shape. */
function conversation(rng: Prng, i: number): unknown {
  const t0 = START + i * 3000;
  const mapping: Record<string, unknown> = {};
  const node = (id: string, parent: string | null, message: unknown) => {
    mapping[id] = { id, message, parent, children: [] };
    if (parent) (mapping[parent] as { children: string[] }).children.push(id);
  };
  const msg = (id: string, role: string, t: number, parts: string[], extra: Record<string, unknown> = {}) => ({
    id,
    author: { role, name: null, metadata: {} },
    create_time: t,
    content: { content_type: 'text', parts },
    status: 'finished_successfully',
    metadata: {},
    recipient: 'all',
    ...extra,
  });
  node('root', null, null);
  node('sys', 'root', msg('sys', 'system', t0, [''], { metadata: { is_visually_hidden_from_conversation: true } }));
  let parent = 'sys';
  const turns = rng.int(2, 6);
  for (let k = 0; k < turns; k++) {
    const t = t0 + k * 60;
    node(`u${k}`, parent, msg(`u${k}`, 'user', t, [text(rng, rng.int(1, 3))]));
    parent = `u${k}`;
    if (k === 0 && i % 5 === 0) node('old', parent, msg('old', 'assistant', t + 5, [text(rng, 2)]));
    if (rng.chance(0.15)) {
      node(`c${k}`, parent, { ...msg(`c${k}`, 'assistant', t + 10, []), content: { content_type: 'code', language: 'python', text: 'print(1)' }, recipient: 'python' });
      node(`o${k}`, `c${k}`, { ...msg(`o${k}`, 'tool', t + 11, []), content: { content_type: 'execution_output', text: '1' } });
      parent = `o${k}`;
    }
    node(`a${k}`, parent, msg(`a${k}`, 'assistant', t + 20, [text(rng, rng.int(2, 5))]));
    parent = `a${k}`;
  }
  return { title: `Conversation ${i}: ${rng.pick(TOPICS_EN)}`, create_time: t0, update_time: t0 + turns * 60, mapping, current_node: parent, conversation_id: `bench-${SEED}-${i}`, id: `bench-${SEED}-${i}` };
}

function exportFile(): Blob {
  const rng = createPrng(SEED);
  const parts: string[] = ['['];
  for (let i = 0; i < CONVERSATIONS; i++) parts.push(`${i ? ',' : ''}${JSON.stringify(conversation(rng, i))}`);
  parts.push(']');
  return new Blob(parts);
}

/** A caller whose every call is delivered as a macrotask, as a worker's port delivers messages. */
const viaPort = (engine: Engine): Caller => ({ call: (method, input) => new Promise((done) => setImmediate(() => done(engine.call(method, input)))) });

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'engram-import-bench-'));
  const db = openFileEngine({ dbPath: join(dir, 'conversation-memory.db') });
  const engine = viaPort(db.engine);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const baselineRss = process.memoryUsage().rss;
  let peakRss = baselineRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);

  const generated = performance.now();
  const file = exportFile();
  const generateMs = performance.now() - generated;

  // The other caller: a chat turn stored every 25 ms, each call's wait recorded.
  const waits: number[] = [];
  const chat = await engine.call('session.create', { title: 'chatting while importing' });
  if (!chat.ok) throw new Error(chat.error.message);
  let turnNo = 0;
  let probing = PROBE !== 0;
  const probe = (async () => {
    while (probing) {
      const asked = performance.now();
      const res = await engine.call('message.append', { sessionId: chat.data.id, role: turnNo++ % 2 ? 'assistant' : 'user', content: `turn ${turnNo} while the import runs` });
      if (!res.ok) throw new Error(res.error.message);
      waits.push(performance.now() - asked);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();

  const t0 = performance.now();
  const preview = await engine.call('import.preview', { source: 'chatgpt', files: [{ name: 'conversations.json', file }] });
  if (!preview.ok) throw new Error(preview.error.message);
  const previewMs = performance.now() - t0;
  const t1 = performance.now();
  let steps = 0;
  const outcome = await driveImport({ engine, preview: preview.data, onProgress: () => void steps++ });
  const applyMs = performance.now() - t1;
  const totalMs = performance.now() - t0;
  probing = false;
  await probe;
  clearInterval(sampler);
  if (outcome.kind !== 'done') throw new Error(`import ${outcome.kind}`);

  const status = await engine.call('import.status', {});
  db.close();
  rmSync(dir, { recursive: true, force: true });

  const m = machineInfo();
  mkdirSync(dirname(OUT), { recursive: true });
  const result: Result & Record<string, unknown> = {
    machine: m,
    conversations: CONVERSATIONS,
    fileBytes: file.size,
    messages: outcome.result.messages,
    skipped: preview.data.skipped,
    generateMs: Math.round(generateMs),
    previewMs: Math.round(previewMs),
    applyMs: Math.round(applyMs),
    totalMs: Math.round(totalMs),
    steps,
    messagesPerSecond: Math.round(outcome.result.messages / (applyMs / 1000)),
    baselineRssMb: Math.round(baselineRss / 2 ** 20),
    peakRssMb: Math.round(peakRss / 2 ** 20),
    otherCalls: {
      count: waits.length,
      p50Ms: Math.round(percentile(waits, 50) * 10) / 10,
      p95Ms: Math.round(percentile(waits, 95) * 10) / 10,
      longestStallMs: waits.length ? Math.round(Math.max(...waits) * 10) / 10 : null,
    },
    followUpBacklog: status.ok ? status.data.backlog : null,
  };
  writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  report(result);
}

type Result = {
  machine: ReturnType<typeof machineInfo>;
  conversations: number;
  fileBytes: number;
  messages: number;
  previewMs: number;
  applyMs: number;
  totalMs: number;
  steps: number;
  messagesPerSecond: number;
  baselineRssMb: number;
  peakRssMb: number;
  otherCalls: { count: number; p50Ms: number; p95Ms: number; longestStallMs: number | null };
};

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'results', 'import-chatgpt.json');

/** The table, printed and written beside the JSON (`--report` rewrites it from the JSON alone). */
function report(r: Result): void {
  const lines = [
    `# Import of a ${r.conversations.toLocaleString('en')}-conversation ChatGPT export (\`npm run bench:import\`)`,
    '',
    `${(r.fileBytes / 2 ** 20).toFixed(1)} MB generated export, ${r.messages.toLocaleString('en')} messages written, ${r.steps} steps — ${machineLine(r.machine)}.`,
    'Node host (better-sqlite3, WAL file database); each call of the importer and of the other caller goes through a macrotask hop, as a worker port delivers them.',
    'The other caller stores a chat turn every 25 ms for the whole import; "longest" is the longest one of its calls waited.',
    '',
    '| preview s | apply s | total s | messages/s | peak RSS MB (baseline) | other calls p50 / p95 / longest ms (n) |',
    '|---|---|---|---|---|---|',
    `| ${(r.previewMs / 1000).toFixed(1)} | ${(r.applyMs / 1000).toFixed(1)} | ${(r.totalMs / 1000).toFixed(1)} | ${r.messagesPerSecond} | ${r.peakRssMb} (${r.baselineRssMb}) | ${r.otherCalls.p50Ms} / ${r.otherCalls.p95Ms} / ${r.otherCalls.longestStallMs} (${r.otherCalls.count}) |`,
    '',
  ];
  writeFileSync(OUT.replace(/\.json$/, '.md'), lines.join('\n'));
  console.log(lines.join('\n'));
}

if (process.argv.includes('--report')) report(JSON.parse(readFileSync(OUT, 'utf8')) as Result);
else await main();
