/**
 * Issue 19: the forgetting ledger travels in backups — a library moved to a new device (or restored) still
 * says what it forgot, when and why, and which items the user kept; a project's export carries its own lines.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../domain/clock';
import { expectOk } from '../testing';
import { createBackupTestEngine, exportText, importText } from '../backup/testing';

async function faded() {
  const a = await createBackupTestEngine({ idPrefix: 'a' });
  const novel = expectOk(await a.engine.call('project.create', { name: '长夜' }));
  const notes = expectOk(await a.engine.call('project.create', { name: 'notes' }));
  for (const [project, passage] of [[novel, '他推开门，雨还在下。'], [notes, 'The ship left at dawn.']] as const) {
    const doc = expectOk(await a.engine.call('document.create', { projectId: project.id, title: 'ch', content: passage }));
    expectOk(await a.engine.call('episode.record', { skillId: 'continue', projectId: project.id, documentId: doc.id, input: passage, candidates: ['短句。'], selectedIndex: 0 }));
  }
  a.clock.advance(40 * DAY_MS);
  expectOk(await a.engine.call('lifecycle.run', { phases: ['decay'] }));
  const ledger = expectOk(await a.engine.call('lifecycle.ledger', {})).items;
  expect(ledger.map((l) => l.action)).toEqual(['faded', 'faded']);
  const kept = ledger.find((l) => l.projectId === novel.id)!;
  expectOk(await a.engine.call('lifecycle.keep', { itemType: 'episode', itemId: kept.itemId }));
  return { a, novel, notes };
}

describe('the forgetting ledger in backups', () => {
  it('a whole-library backup brings every ledger line, with its "keep this", to a new device', async () => {
    const { a } = await faded();
    const before = expectOk(await a.engine.call('lifecycle.ledger', {})).items;
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    await importText(b.engine, await exportText(a.engine), 'merge');
    const after = expectOk(await b.engine.call('lifecycle.ledger', {})).items;
    const strip = (items: typeof before) => items.map(({ id: _, ...rest }) => rest);
    expect(strip(after)).toEqual(strip(before));
    expect(after.filter((l) => l.keptAt !== null)).toHaveLength(1);
    // Imported twice, nothing doubles.
    await importText(b.engine, await exportText(a.engine), 'merge');
    expect(expectOk(await b.engine.call('lifecycle.ledger', {})).total).toBe(2);
  });

  it("a project's backup carries that project's ledger lines only", async () => {
    const { a, novel } = await faded();
    const text = await exportText(a.engine, { kind: 'project', id: novel.id });
    expect(JSON.parse(text).tables.forgetting_ledger.map((r: { project_id: string }) => r.project_id)).toEqual([novel.id]);
  });
});
