import { liveQuery } from 'dexie';
import type { z } from 'zod';
import { DEFAULT_MODEL_SETTINGS, modelSettingsSchema, type ModelSettings } from '../../domain/llm/settings';
import { localDb, type LocalDb } from '../local/local-db';
import { readPref, writePref } from '../local/prefs';

/**
 * The model endpoint (base URL, model, key…), kept in Dexie on this device only (ARCHITECTURE §3, §7):
 * never in SQLite, so never in an export, and the key is never logged.
 *
 *   settings page ── saveModelSettings() ──▶ Dexie prefs['model.settings'] ──liveQuery──▶ every tab's store
 *   chat ── modelSettings.current / await modelSettings.ready() ──▶ createProvider(...)
 */
export const MODEL_SETTINGS_KEY = 'model.settings';

export type ModelSettingsInput = z.input<typeof modelSettingsSchema>;

class ModelSettingsStore {
  /** The settings in force; the defaults until the stored value has loaded. Raw (not a deep proxy), so it can be posted to a worker. */
  current = $state.raw<ModelSettings>(DEFAULT_MODEL_SETTINGS);
  /** True once the stored value (or the defaults, when nothing is stored) has been read. */
  loaded = $state(false);
  #loading: Promise<ModelSettings> | null = null;

  /** Resolves once loaded: await it before the first model request so it never runs on the defaults by mistake. */
  ready(db: LocalDb = localDb()): Promise<ModelSettings> {
    this.#loading ??= loadModelSettings(db);
    return this.#loading;
  }

  /** @internal Sets the value in force (load, save, or another tab's save). */
  set(value: ModelSettings): void {
    this.current = value;
    this.loaded = true;
  }
}

export const modelSettings = new ModelSettingsStore();

/** Reads the stored settings; a missing or no-longer-valid value gives the defaults. */
export async function loadModelSettings(db: LocalDb = localDb()): Promise<ModelSettings> {
  const value = await readPref(db, MODEL_SETTINGS_KEY, modelSettingsSchema);
  modelSettings.set(value);
  return value;
}

/**
 * Validates and stores the settings on this device; the next model request uses them. Throws the
 * ZodError when the value is invalid (the settings form validates first and shows it by field).
 */
export async function saveModelSettings(value: ModelSettingsInput, db: LocalDb = localDb()): Promise<ModelSettings> {
  const saved = await writePref(db, MODEL_SETTINGS_KEY, modelSettingsSchema, value);
  modelSettings.set(saved);
  return saved;
}

/** Follows saves made in other tabs (Dexie's liveQuery sees IndexedDB writes across tabs). */
function followOtherTabs(db: LocalDb): void {
  liveQuery(() => db.prefs.get(MODEL_SETTINGS_KEY)).subscribe({
    next: (row) => {
      const parsed = modelSettingsSchema.safeParse(row?.value);
      modelSettings.set(parsed.success ? parsed.data : DEFAULT_MODEL_SETTINGS);
    },
    error: () => {
      /* IndexedDB unavailable (some private windows): the defaults stay in force */
    },
  });
}

// Loaded at startup in a page: whatever imports this first (settings, chat) starts the read.
if (typeof window !== 'undefined' && typeof indexedDB !== 'undefined') {
  void modelSettings.ready().catch(() => modelSettings.set(DEFAULT_MODEL_SETTINGS));
  followOtherTabs(localDb());
}
