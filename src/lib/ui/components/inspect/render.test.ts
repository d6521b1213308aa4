import { afterEach, describe, expect, it } from 'vitest';
import type { LayerResult } from '../../../domain/context';
import type { RunDetail } from '../../../engine/context/types';
import type { EngineCaller } from '../../../engine/client/caller';
import { i18n } from '../../i18n/i18n.svelte';
import { renderHtml, textOf } from '../settings/test-render';
import InspectView from './inspect-view.svelte';
import { InspectState } from './inspect-state.svelte';
import LayerCard from './layer-card.svelte';
import RunList from './run-list.svelte';

afterEach(() => i18n.setLocale('en'));

const noEngine: EngineCaller = { call: async () => ({ ok: false, error: { code: 'DB_UNAVAILABLE', message: '' } }) };

const l2: LayerResult = {
  id: 'L2',
  text: '## L2 · preferences · 用户偏好\n[用户写作偏好 - 自动学习]\n- <b>短句</b>（置信度: 0.87）',
  tokens: 700,
  budget: 600,
  status: 'degraded',
  reason: 'DB_UNAVAILABLE',
  sources: ['preference:r-2', 'memory:m-1', '.engram/style/guide.md', 'turn:7'],
  cut: [
    { itemId: 'preference:r-1', reason: 'masked', tokensBefore: 12, tokensAfter: 0 },
    { itemId: 'preference:r-9', reason: 'over-budget', tokensBefore: 30, tokensAfter: 0 },
  ],
  items: [{ id: 'preference:r-2', tokens: 20 }],
};

const layer = (id: LayerResult['id']): LayerResult => ({ id, text: `## ${id}`, tokens: 10, budget: 100, status: 'ok', sources: [], cut: [], items: [] });

function record(patch: Partial<RunDetail> = {}): RunDetail {
  return {
    id: 'run-7',
    kind: 'chat',
    skillId: 'chat',
    sessionId: 's-1',
    messageId: 12,
    projectId: null,
    documentId: null,
    stablePrefixHash: 'f'.repeat(64),
    status: 'completed',
    createdAt: Date.UTC(2026, 0, 17),
    finishedAt: Date.UTC(2026, 0, 17, 0, 0, 3),
    totalTokens: 321,
    memoryDegraded: true,
    layers: [layer('L0'), layer('L1'), l2, layer('L3'), layer('L4'), layer('L5')],
    memoryIds: [],
    toolMemoryIds: [],
    messages: [{ role: 'system', content: 'You are <script>x</script>' }],
    messagesPruned: false,
    ...patch,
  };
}

describe('a layer card', () => {
  it('shows tokens over budget, the reason explained, cuts translated and sources linked', () => {
    const html = renderHtml(LayerCard, { layer: l2, run: { sessionId: 's-1' } });
    expect(html).toMatch(/data-testid="layer-card"[^>]*data-layer="L2"/);
    expect(html).toMatch(/data-testid="layer-tokens"[^>]*data-over="true"/);
    const text = textOf(html);
    expect(text).toContain('700 / 600 tokens');
    expect(text).toContain('Over budget by 100 tokens');
    expect(text).toContain('Degraded');
    expect(text).toContain('The database could not be read.');
    expect(text).toContain('Masked: a project rule overrides this global rule');
    expect(text).toContain('12 → 0');
    expect(html.match(/data-testid="layer-cut"/g)).toHaveLength(2);
    expect(html).toContain('href="/memory?id=m-1"');
    expect(html).toContain('href="/chat?session=s-1&amp;message=7"');
    expect(html).toContain('<code>.engram/style/guide.md</code>');
    // Prompt text is shown as text.
    expect(html).toContain('&lt;b>短句&lt;/b>');
    expect(html).not.toContain('<b>短句</b>');
  });

  it('reads in Chinese', () => {
    i18n.setLocale('zh-CN');
    const text = textOf(renderHtml(LayerCard, { layer: l2, run: { sessionId: null } }));
    expect(text).toContain('用户偏好');
    expect(text).toContain('超出预算 100 Token');
    expect(text).not.toMatch(/inspect:/);
  });
});

describe('the run list', () => {
  it('links every run and shows its short prefix hash and degraded memory', () => {
    const { layers: _l, memoryIds: _m, toolMemoryIds: _t, messages: _x, messagesPruned: _p, ...summary } = record();
    const html = renderHtml(RunList, { runs: [summary, { ...summary, id: 'run-8', memoryDegraded: false, kind: 'skill', skillId: 'polish' }], loaded: true, onrefresh: () => {} });
    expect(html.match(/data-testid="run-item"/g)).toHaveLength(2);
    expect(html).toContain('href="/inspect?run=run-7"');
    const text = textOf(html);
    expect(text).toContain('ffffffffffff');
    expect(text).not.toContain('f'.repeat(13));
    expect(text).toContain('Degraded');
    expect(text).toContain('Polish');
  });

  it('says how to get a first run', () => {
    expect(textOf(renderHtml(RunList, { runs: [], loaded: true, onrefresh: () => {} }))).toContain('No runs yet');
  });
});

describe('one run', () => {
  it('shows the header, six layers in order, the messages as text and a JSON copy button', () => {
    const inspector = new InspectState({ engine: noEngine });
    inspector.record = record();
    const html = renderHtml(InspectView, { inspector, runId: 'run-7', ready: false });
    expect(html).toContain('data-testid="run-header"');
    expect(html).toContain(`<code data-testid="prefix-hash">${'f'.repeat(64)}</code>`);
    expect(html).toContain('data-testid="memory-degraded"');
    expect([...html.matchAll(/data-layer="(L\d)"/g)].map((m) => m[1])).toEqual(['L0', 'L1', 'L2', 'L3', 'L4', 'L5']);
    expect(html).toContain('data-testid="copy-json"');
    expect(html).toContain('data-testid="run-messages"');
    expect(html).toContain('You are &lt;script>x&lt;/script>');
    expect(html).toContain('href="/chat?session=s-1&amp;message=12"');
  });

  it('lists what the model found with search_memories, as text', () => {
    const inspector = new InspectState({ engine: noEngine });
    inspector.record = record({ memoryIds: ['m-1', 'm-2'], toolMemoryIds: ['m-1', 'm-2'] });
    inspector.toolMemories = [{ id: 'm-1', content: 'Python <b>打包</b>用 uv' } as never];
    const html = renderHtml(InspectView, { inspector, runId: 'run-7', ready: false });
    expect(html).toContain('data-testid="tool-memories"');
    expect(html).toContain('Python &lt;b>打包&lt;/b>用 uv');
    const text = textOf(html);
    expect(text).toContain('Found by the model’s memory search');
    expect(text).toContain('1 of them has been deleted since.');
    inspector.record = record();
    expect(renderHtml(InspectView, { inspector, runId: 'run-7', ready: false })).not.toContain('data-testid="tool-memories"');
  });

  it('says when the prompt text was pruned', () => {
    const inspector = new InspectState({ engine: noEngine });
    inspector.record = record({ messages: null, messagesPruned: true });
    const html = renderHtml(InspectView, { inspector, runId: 'run-7', ready: false });
    expect(html).not.toContain('data-testid="run-messages"');
    expect(textOf(html)).toContain('was pruned to save space');
  });

  it('shows trace references with their weights and verdict buttons', () => {
    const inspector = new InspectState({ engine: noEngine });
    inspector.record = record();
    inspector.trace = {
      generationId: 'run-7',
      memoryReferences: [
        { type: 'semantic', id: 'preference:r-2', layer: 'L2', weight: 0.6 },
        { type: 'memory', id: 'memory:m-1', layer: 'L4', weight: 0.4 },
      ],
      verdict: null,
      verdictAt: null,
    };
    inspector.rules = [
      {
        id: 'r-2', rule: '偏好短句 · short sentences', category: 'pacing', scope: 'global', projectId: null, key: null, confidence: 0.87,
        supporting: [], contradicting: [], userConfirmed: false, userModified: false, source: 'learned', version: 1, status: 'active', createdAt: 0, updatedAt: 0,
        basis: [], penalty: 0, driftedAt: null, conflictId: null,
      },
    ];
    const html = renderHtml(InspectView, { inspector, runId: 'run-7', ready: false });
    expect(html.match(/data-testid="trace-ref"/g)).toHaveLength(2);
    expect(html.match(/data-testid="trace-wrong"/g)).toHaveLength(2);
    const text = textOf(html);
    expect(text).toContain('Preferences · 60 %');
    expect(text).toContain('偏好短句 · short sentences');
    expect(text).toContain('Confidence 0.87');
    expect(html).toContain('href="/memory?id=m-1"');
  });

  it('marks a trace reference whose item was deleted, forgotten or cleared since the run (003 trace 失配): a note, no link, no verdict buttons — in both languages', () => {
    const inspector = new InspectState({ engine: noEngine });
    inspector.record = record();
    inspector.trace = {
      generationId: 'run-7',
      memoryReferences: [
        { type: 'semantic', id: 'preference:r-2', layer: 'L2', weight: 0.6 },
        { type: 'memory', id: 'memory:m-1', layer: 'L4', weight: 0.4, gone: true },
      ],
      verdict: null,
      verdictAt: null,
    };
    const html = renderHtml(InspectView, { inspector, runId: 'run-7', ready: false });
    expect(html.match(/data-testid="trace-ref"/g)).toHaveLength(2);
    expect(html.match(/data-gone="true"/g)).toHaveLength(1);
    expect(html).toMatch(/data-ref="memory:m-1" data-gone="true"/);
    expect(html.match(/data-testid="trace-gone"/g)).toHaveLength(1);
    expect(html.match(/data-testid="trace-wrong"/g)).toHaveLength(1);
    // The layers above still name it as a source of the run; the trace panel offers no link to what is gone.
    expect(html.slice(html.indexOf('data-testid="trace-panel"'))).not.toContain('href="/memory?id=m-1"');
    expect(textOf(html)).toContain('No longer in memory: deleted, forgotten or cleared since this run.');
    i18n.setLocale('zh-CN');
    expect(textOf(renderHtml(InspectView, { inspector, runId: 'run-7', ready: false }))).toContain('已不在记忆中：此次运行之后已被删除、遗忘或清除。');
  });

  it('says a deleted run is gone', () => {
    const inspector = new InspectState({ engine: noEngine });
    inspector.notFound = true;
    expect(renderHtml(InspectView, { inspector, runId: 'gone', ready: false })).toContain('data-testid="run-not-found"');
  });
});

describe('issue 15: provenance a person reads', () => {
  const l4: LayerResult = {
    ...layer('L4'),
    sources: ['memory:11111111-2222-3333-4444-555555555555'],
    items: [
      { id: 'memory:11111111-2222-3333-4444-555555555555', tokens: 6, kind: 'memory', text: 'My sister is called Lena.' },
      { id: 'recall:turn:9', tokens: 6, kind: 'summary', text: 'We pack on Friday.', meta: { role: 'user', createdAt: Date.UTC(2026, 10, 25, 14, 41), title: 'Moving house', conversationId: 'c-3' } },
    ],
  };
  /** The text a person sees: what closed <details> (the technical id) hold is left out. */
  const visible = (html: string) => textOf(html.replace(/<details[^>]*>[\s\S]*?<\/details>/g, ' '));

  it('a layer lists each kept item by its words, who said it, when and where, with the id only behind Technical id', () => {
    const html = renderHtml(LayerCard, { layer: l4, run: { sessionId: 's-1' } });
    const text = visible(html);
    expect(text).toContain('My sister is called Lena.');
    expect(text).toContain('We pack on Friday.');
    expect(text).toContain('From another conversation You');
    expect(text).toContain('Nov 25, 2026');
    expect(text).toContain('Moving house');
    expect(text).not.toMatch(/memory:|recall:|11111111/);
    expect(html).toContain('href="/chat?session=c-3&amp;message=9"');
    expect(html).toContain('href="/memory?tab=memories&amp;id=11111111-2222-3333-4444-555555555555"');
    expect(textOf(html)).toContain('Technical id memory:11111111-2222-3333-4444-555555555555');
  });

  it('an older run without words shows the memory from the store, and reads in Chinese', () => {
    i18n.setLocale('zh-CN');
    const bare: LayerResult = { ...l4, items: [{ id: 'memory:m-old', tokens: 3 }] };
    const text = visible(renderHtml(LayerCard, { layer: bare, run: { sessionId: null }, texts: new Map([['memory:m-old', '我搬到了波尔图。']]) }));
    expect(text).toContain('记忆');
    expect(text).toContain('我搬到了波尔图。');
    expect(text).not.toContain('m-old');
  });

  it('"Why this?" shows each reference by the words the model was given', () => {
    const inspector = new InspectState({ engine: noEngine });
    inspector.record = record({ layers: [layer('L0'), layer('L1'), layer('L2'), layer('L3'), l4, layer('L5')] });
    inspector.trace = {
      generationId: 'run-7',
      memoryReferences: [{ type: 'memory', id: 'memory:11111111-2222-3333-4444-555555555555', layer: 'L4', weight: 1 }],
      verdict: null,
      verdictAt: null,
    };
    const html = renderHtml(InspectView, { inspector, runId: 'run-7', ready: false });
    const trace = html.slice(html.indexOf('data-testid="trace-panel"'));
    expect(visible(trace)).toContain('My sister is called Lena.');
    expect(visible(trace)).not.toContain('11111111');
  });

  it('runs are listed by their request and conversation', () => {
    const run = { ...record(), request: 'Where do I live now?', where: 'Moving house' };
    const text = textOf(renderHtml(RunList, { runs: [run, { ...run, id: 'run-9', request: null, where: null }], loaded: true, onrefresh: () => {} }));
    expect(text).toContain('Where do I live now?');
    expect(text).toContain('Moving house');
    expect(text).toContain('(no message kept)');
  });
});
