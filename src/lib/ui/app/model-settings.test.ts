import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_SETTINGS } from '../../domain/llm/settings';
import { LocalDb } from '../local/local-db';
import { loadModelSettings, MODEL_SETTINGS_KEY, modelSettings, saveModelSettings } from './model-settings.svelte';

let n = 0;
const dbs: LocalDb[] = [];
function freshDb(): LocalDb {
  const db = new LocalDb(`model-settings-test-${++n}`);
  dbs.push(db);
  return db;
}

afterEach(async () => {
  const open = dbs.splice(0);
  for (const db of open) db.close();
  for (const name of new Set(open.map((db) => db.name))) await Dexie.delete(name);
});

describe('model settings store', () => {
  it('starts from the defaults when nothing is stored', async () => {
    const db = freshDb();
    expect(await loadModelSettings(db)).toEqual(DEFAULT_MODEL_SETTINGS);
    expect(modelSettings.loaded).toBe(true);
  });

  it('keeps a saved endpoint across a reload of the page', async () => {
    const db = freshDb();
    await saveModelSettings({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen2.5', apiKey: 'sk-test' }, db);
    modelSettings.set(DEFAULT_MODEL_SETTINGS); // as if the page had reloaded
    db.close();
    const reopened = new LocalDb(db.name);
    dbs.push(reopened);
    const loaded = await loadModelSettings(reopened);
    expect(loaded).toMatchObject({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen2.5', apiKey: 'sk-test' });
    expect(modelSettings.current).toEqual(loaded);
  });

  it('refuses an invalid value and keeps the stored one', async () => {
    const db = freshDb();
    await saveModelSettings({ provider: 'openai-compatible', model: 'a' }, db);
    await expect(saveModelSettings({ baseUrl: 'not a url' }, db)).rejects.toThrow();
    expect((await loadModelSettings(db)).model).toBe('a');
  });

  it('falls back to the defaults when the stored value no longer validates', async () => {
    const db = freshDb();
    await db.prefs.put({ key: MODEL_SETTINGS_KEY, value: { provider: 'gone-provider' } });
    expect(await loadModelSettings(db)).toEqual(DEFAULT_MODEL_SETTINGS);
  });
});
