import i18next, { type i18n as I18n } from 'i18next';
import { LOCALES, resources, type Locale, type Namespaces } from './resources';
import type { LeafKeys } from './types';

/** 'ns:path.to.key' for every string of every namespace. */
export type MessageKey = { [N in keyof Namespaces & string]: `${N}:${LeafKeys<Namespaces[N]>}` }[keyof Namespaces & string];

const STORAGE_KEY = 'engram.locale';

/** zh, zh-CN, zh-Hans… → zh-CN; everything else → en. */
export function pickLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

function initialLocale(): Locale {
  if (typeof localStorage !== 'undefined') {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && (LOCALES as string[]).includes(saved)) return saved as Locale;
  }
  return pickLocale(typeof navigator !== 'undefined' ? navigator.languages : []);
}

const instance: I18n = i18next.createInstance();
void instance.init({
  resources: resources as unknown as Record<string, Record<string, object>>,
  lng: initialLocale(),
  fallbackLng: 'en',
  defaultNS: 'common',
  ns: Object.keys(resources.en),
  initAsync: false,
  // Values are rendered by Svelte as text, which escapes them already.
  interpolation: { escapeValue: false },
  returnNull: false,
});

let current = $state<Locale>(instance.language as Locale);

export const i18n = {
  get locale(): Locale {
    return current;
  },
  setLocale(next: Locale): void {
    current = next;
    void instance.changeLanguage(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      /* private mode: the choice lasts for this page */
    }
    if (typeof document !== 'undefined') document.documentElement.lang = next;
  },
};

/** Translate; reading the locale makes any template that calls t() update when it changes. */
export function t(key: MessageKey, vars?: Record<string, string | number>): string {
  void current;
  return instance.t(key, { ...vars, lng: current }) as string;
}

/** For keys computed at run time (error codes, job steps); falls back to the key itself. */
export function tDynamic(key: string, vars?: Record<string, string | number>): string {
  void current;
  return instance.exists(key, { lng: current }) ? (instance.t(key, { ...vars, lng: current }) as string) : key;
}
