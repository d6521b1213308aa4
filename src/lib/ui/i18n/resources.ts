/**
 * Every namespace, in both languages. A feature adds one namespace: a file under locales/en, its twin
 * under locales/zh-CN (typed by the English one, so a missing string is a compile error) and a line here.
 */
import { common as enCommon } from './locales/en/common';
import { common as zhCommon } from './locales/zh-CN/common';

export const resources = {
  en: { common: enCommon },
  'zh-CN': { common: zhCommon },
} as const;

export type Locale = keyof typeof resources;
export const LOCALES = Object.keys(resources) as Locale[];
export type Namespaces = (typeof resources)['en'];
