import { afterEach, describe, expect, it } from 'vitest';
import type { EngineCaller } from '../../../engine/client/caller';
import type { SkillInfo } from '../../../engine/context/types';
import { i18n } from '../../i18n/i18n.svelte';
import { renderHtml, textOf } from '../settings/test-render';
import { splitSelection } from './selection';
import SettingsPanel from './settings-panel.svelte';
import { testWriteDeps } from './testing';
import WriteView from './write-view.svelte';
import { WriteState } from './write-state.svelte';

afterEach(() => i18n.setLocale('en'));

const noEngine: EngineCaller = { call: async () => ({ ok: false, error: { code: 'DB_UNAVAILABLE', message: '' } }) };
const skill = (id: string, needsSelection: boolean): SkillInfo => ({
  id,
  nameKey: `skills.${id}.name`,
  descriptionKey: `skills.${id}.description`,
  contextRules: {},
  needsSelection,
});

/** The page with an open chapter, as the state would be after loading. */
function openChapter(content = 'The cat sat on the mat.') {
  const w = new WriteState(testWriteDeps({ engine: noEngine, now: () => 0 }).deps);
  w.projects.projects = [{ id: 'p1', name: 'Novel', createdAt: 0, updatedAt: 0 }];
  w.projects.projectId = 'p1';
  w.projects.documents = [{ id: 'd1', projectId: 'p1', title: 'Chapter 1', chars: content.length, createdAt: 0, updatedAt: 0 }];
  w.editor.documentId = 'd1';
  w.editor.title = 'Chapter 1';
  w.editor.content = content;
  w.runner.skills = [skill('chat', false), skill('continue', false), skill('polish', true), skill('summarize', true), skill('consistency-check', true)];
  return w;
}

describe('the Write page', () => {
  it('invites to create a project when there is none', () => {
    const w = new WriteState(testWriteDeps({ engine: noEngine, now: () => 0 }).deps);
    const html = renderHtml(WriteView, { write: w, ready: false });
    expect(html).toContain('data-testid="project-create"');
    expect(textOf(html)).toContain('Start a writing project');
    expect(html).not.toContain('data-testid="editor"');
  });

  it('shows the chapter, its save state, the skills (not chat) and the setting files', () => {
    const html = renderHtml(WriteView, { write: openChapter(), ready: false });
    for (const id of ['project-select', 'document-item', 'document-create', 'editor', 'save-state', 'skill-instruction', 'settings-file-create']) {
      expect(html, id).toContain(`data-testid="${id}"`);
    }
    expect(html).toContain('data-testid="skill-continue"');
    expect(html).toContain('data-testid="skill-consistency-check"');
    expect(html).not.toContain('data-testid="skill-chat"');
    expect(html).toMatch(/<textarea id="editor"[^>]*>The cat sat on the mat.<\/textarea>/);
    expect(html).toContain('for="editor"');
    expect(html).toMatch(/data-testid="save-state" data-state="saved"/);
    // Without a selection, only Continue can run.
    expect(html).toMatch(/<button data-testid="skill-polish"[^>]*disabled/);
    expect(html).not.toMatch(/<button data-testid="skill-continue"[^>]*disabled/);
  });

  it('shows a polish result as a diff of text spans, the output editable, and Why this?', () => {
    const w = openChapter('He said <b>hi</b> slowly.');
    w.runner.phase = 'review';
    w.runner.result = { runId: 'run-1', skill: skill('polish', true), mode: 'replace', sel: splitSelection('He said <b>hi</b> slowly.', 8, 24), candidates: ['<i>hello</i> quickly'], output: '<i>hello</i> quickly' };
    w.runner.edited = '<i>hello</i> quickly';
    const html = renderHtml(WriteView, { write: w, ready: false });
    expect(html).toContain('data-testid="skill-diff"');
    expect(html).toContain('<del>hi</del><ins>hello</ins>');
    expect(html).toContain('<span>&lt;</span>');
    expect(html).not.toContain('<i>hello</i>');
    expect(html).not.toContain('<b>hi</b>');
    expect(html).toContain('data-testid="skill-output"');
    expect(html).toContain('data-testid="skill-accept"');
    expect(html).toContain('data-testid="skill-reject"');
    expect(html).toContain('href="/inspect?run=run-1"');
    expect(html).toMatch(/<textarea id="editor"[^>]*readonly/);
  });

  it('says a model is needed and links to what would have been sent', () => {
    const w = openChapter();
    w.runner.noModelRunId = 'run-9';
    const html = renderHtml(WriteView, { write: w, ready: false });
    expect(html).toContain('data-testid="no-model-notice"');
    expect(html).toContain('href="/inspect?run=run-9"');
    expect(html).toContain('href="/settings#model"');
  });

  it('names the signal, says when learning is paused, and offers Undo after an accept', () => {
    const w = openChapter();
    w.runner.learningPaused = true;
    w.runner.undoable = { runId: 'run-1', mode: 'replace', original: 'a', final: 'b', applied: { from: 0, to: 1 }, acceptedAt: 0 };
    w.runner.lastSignal = 'strong-positive';
    const html = renderHtml(WriteView, { write: w, ready: false });
    const text = textOf(html);
    expect(text).toContain('Learning is paused: this was recorded');
    expect(html).toContain('href="/memory?tab=preferences"');
    expect(text).toContain('Undo within 30 seconds');
    expect(text).toContain('strong positive signal');
  });

  it('offers the candidates of one run as versions, a comment field and "another version"', () => {
    const w = openChapter('He said hi slowly.');
    w.runner.phase = 'review';
    w.runner.result = { runId: 'run-1', skill: skill('polish', true), mode: 'replace', sel: splitSelection('He said hi slowly.', 8, 10), candidates: ['hello', 'hey there'], output: 'hey there' };
    w.runner.current = 1;
    w.runner.edited = 'hey there';
    const html = renderHtml(WriteView, { write: w, ready: false });
    expect(html.match(/data-testid="skill-version"/g)).toHaveLength(2);
    expect(html).toMatch(/aria-pressed="true"[^>]*data-testid="skill-version"[^>]*>\s*Version 2/);
    expect(html).toContain('data-testid="skill-comment"');
    expect(textOf(html)).toContain('Comment (optional)');
  });

  it('shows a model failure with a way to the settings, and a canceled run shows nothing', () => {
    const w = openChapter();
    w.runner.error = { code: 'MODEL_UNAVAILABLE', message: 'No model server answered at http://localhost:11434.' };
    const html = renderHtml(WriteView, { write: w, ready: false });
    expect(textOf(html)).toContain('The skill failed: The model could not be reached: No model server answered');
    expect(html).toContain('href="/settings#model"');
  });

  it('reads in Chinese with no untranslated key', () => {
    i18n.setLocale('zh-CN');
    const text = textOf(renderHtml(WriteView, { write: openChapter(), ready: false }));
    expect(text).toContain('润色');
    expect(text).toContain('一致性检查');
    expect(text).toContain('设定文件');
    expect(text).not.toMatch(/write:|common:|skills\./);
  });
});

describe('the setting files panel', () => {
  it('lists files by folder and opens one in a labelled editor', () => {
    const w = openChapter();
    w.files.entries = [
      { path: '.engram/characters/林晚.md', size: 10, updatedAt: 0 },
      { path: '.engram/style/guide.md', size: 10, updatedAt: 0 },
    ];
    w.files.open = { path: '.engram/characters/林晚.md', content: '十七岁，从不说谎。', isNew: false };
    const html = renderHtml(SettingsPanel, { files: w.files, projectId: 'p1' });
    expect(html.match(/data-testid="settings-file-item"/g)).toHaveLength(2);
    expect(textOf(html)).toContain('林晚');
    expect(html).toMatch(/<textarea id="settings-file-editor"[^>]*data-testid="settings-file-editor"[^>]*aria-label="Content of .engram\/characters\/林晚.md"/);
    expect(html).toContain('data-testid="settings-file-save"');
  });

  it('asks for a project first', () => {
    const w = openChapter();
    expect(textOf(renderHtml(SettingsPanel, { files: w.files, projectId: null }))).toContain('Create a project to add setting files.');
  });
});
