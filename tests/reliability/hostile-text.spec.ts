import { expect, test, type Page } from '@playwright/test';
import { callRaw, open } from '../e2e/helpers';

/**
 * Issue 13, reliability suite — hostile text: script tags, event handlers, `javascript:` / `data:` links and markdown
 * tricks are stored through the engine in every field the app renders, then every page is visited in the built app
 * (its Content-Security-Policy on). Nothing may execute: `window.__pwned` stays unset, no dialog opens, the console
 * says nothing of it, and no rendered link points at `javascript:` or `data:`.
 */
const PAYLOADS = [
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=1">',
  '<svg onload="window.__pwned=1"></svg>',
  '<details open ontoggle="window.__pwned=1">x</details>',
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '[click me](javascript:window.__pwned=1)',
  '[data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD0xPC9zY3JpcHQ+)',
  '<a href="javascript:alert(1)">a</a>',
  '![x](x" onerror="window.__pwned=1)',
  '<style>*{background:url("javascript:alert(1)")}</style>',
  '`<b onmouseover=alert(1)>code</b>` **<u onclick=alert(1)>bold</u>**',
  '{{constructor.constructor("window.__pwned=1")()}}',
];
const PAGES = ['/chat', '/memory', '/recall', '/write', '/inspect', '/settings', '/settings/memory', '/settings/storage', '/settings/backup', '/settings/privacy'];

const marker = (field: string, i: number) => `hx${field}${i}q`;

test('hostile text in every rendered field runs nothing on any page (CSP on)', async ({ page }) => {
  const alarms: string[] = [];
  page.on('dialog', (d) => {
    alarms.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (/pwned/i.test(m.text())) alarms.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => {
    if (/pwned/i.test(e.message)) alarms.push(`pageerror: ${e.message}`);
  });
  await open(page);
  const stored = new Map<string, number>(); // field → payloads the engine accepted
  const store = async (field: string, method: string, input: unknown) => {
    const res = await callRaw(page, method, input);
    if (res.ok) stored.set(field, (stored.get(field) ?? 0) + 1);
    return res.ok ? (res.data as { id: string; session?: { id: string } }) : undefined;
  };
  const project = await store('project name', 'project.create', { name: `${marker('p', 0)} ${PAYLOADS[0]}` });
  for (const [i, p] of PAYLOADS.entries()) {
    if (i > 0) await store('project name', 'project.create', { name: `${marker('p', i)} ${p}` });
    const s = await store('conversation title', 'session.create', { title: `${marker('t', i)} ${p}` });
    if (s) {
      await store('message', 'message.append', { sessionId: s.id, role: 'user', content: `${marker('u', i)} ${p}` });
      await store('reply', 'message.append', { sessionId: s.id, role: 'assistant', content: `${marker('a', i)} ${p}` });
    }
    await store('memory', 'memory.create', { content: `${marker('m', i)} ${p}` });
    await store('rule', 'rules.add', { rule: `${marker('r', i)} ${p}` });
    if (project) {
      await store('chapter', 'document.create', { projectId: project.id, title: `${marker('c', i)} ${p}`.slice(0, 200), content: `${marker('d', i)} ${p}` });
      await store('file name', 'projectFile.write', { projectId: project.id, path: `.engram/${marker('f', i)} ${p.replace(/[/\\]/g, '_')}.md`, content: `${marker('g', i)} ${p}` });
    }
  }

  const seen = new Set<string>();
  let badLinks: string[] = [];
  const visit = async (p: Page) => {
    const found = await p.evaluate(() => document.body.innerText.match(/hx[a-z]\d+q/g) ?? []);
    for (const f of found) seen.add(f);
    badLinks = badLinks.concat(
      await p.evaluate(() => [...document.querySelectorAll('a[href], iframe, object, embed')].map((a) => a.getAttribute('href') ?? a.tagName).filter((h) => /^(javascript|data):|^(IFRAME|OBJECT|EMBED)$/i.test(h.trim()))),
    );
    expect(await p.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned), `__pwned on ${p.url()}`).toBeUndefined();
  };
  for (const path of PAGES) {
    await open(page, path);
    await page.waitForTimeout(300); // lists render after their first answer
    await visit(page);
    // Open the first items a page lists (a conversation, a chapter, a memory), where longer text is rendered.
    for (const name of [/hxt\d+q/, /hxc\d+q/, /hxm\d+q/]) {
      const item = page.getByText(name).first();
      if (await item.isVisible().catch(() => false)) {
        await item.click().catch(() => undefined);
        await page.waitForTimeout(300);
        await visit(page);
      }
    }
  }
  await page.waitForTimeout(500);
  const fields = [...stored.keys()];
  const storedTotal = [...stored.values()].reduce((a, b) => a + b, 0);
  console.log(
    `[reliability] hostile text: ${PAYLOADS.length} payloads × ${fields.length} fields (${fields.join(', ')}) = ${storedTotal} stored; ` +
      `${seen.size} rendered on ${PAGES.length} pages; ${alarms.length} executions, ${badLinks.length} javascript:/data: links or frames in the DOM`,
  );
  expect(alarms).toEqual([]);
  expect(badLinks).toEqual([]);
  expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(fields.length).toBeGreaterThanOrEqual(7);
  expect(seen.size).toBeGreaterThan(PAYLOADS.length * 2); // the text was rendered (as text), not just stored
});
