/**
 * Every namespace, in both languages. A feature adds one namespace: a file under locales/en, its twin
 * under locales/zh-CN (typed by the English one, so a missing string is a compile error) and a line here.
 */
import { chat as enChat } from './locales/en/chat';
import { chat as zhChat } from './locales/zh-CN/chat';
import { common as enCommon } from './locales/en/common';
import { common as zhCommon } from './locales/zh-CN/common';
import { jobs as enJobs } from './locales/en/jobs';
import { jobs as zhJobs } from './locales/zh-CN/jobs';
import { recall as enRecall } from './locales/en/recall';
import { recall as zhRecall } from './locales/zh-CN/recall';
import { settings as enSettings } from './locales/en/settings';
import { settings as zhSettings } from './locales/zh-CN/settings';

export const resources = {
  en: { common: enCommon, chat: enChat, settings: enSettings, recall: enRecall, jobs: enJobs },
  'zh-CN': { common: zhCommon, chat: zhChat, settings: zhSettings, recall: zhRecall, jobs: zhJobs },
} as const;

export type Locale = keyof typeof resources;
export const LOCALES = Object.keys(resources) as Locale[];
export type Namespaces = (typeof resources)['en'];
