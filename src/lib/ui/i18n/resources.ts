/**
 * Every namespace, in both languages. A feature adds one namespace: a file under locales/en, its twin
 * under locales/zh-CN (typed by the English one, so a missing string is a compile error) and a line here.
 */
import { backup as enBackup } from './locales/en/backup';
import { backup as zhBackup } from './locales/zh-CN/backup';
import { chat as enChat } from './locales/en/chat';
import { chat as zhChat } from './locales/zh-CN/chat';
import { common as enCommon } from './locales/en/common';
import { common as zhCommon } from './locales/zh-CN/common';
import { jobs as enJobs } from './locales/en/jobs';
import { jobs as zhJobs } from './locales/zh-CN/jobs';
import { memory as enMemory } from './locales/en/memory';
import { memory as zhMemory } from './locales/zh-CN/memory';
import { recall as enRecall } from './locales/en/recall';
import { recall as zhRecall } from './locales/zh-CN/recall';
import { settings as enSettings } from './locales/en/settings';
import { settings as zhSettings } from './locales/zh-CN/settings';
import { write as enWrite } from './locales/en/write';
import { write as zhWrite } from './locales/zh-CN/write';
import { inspect as enInspect } from './locales/en/inspect';
import { inspect as zhInspect } from './locales/zh-CN/inspect';
import { storage as enStorage } from './locales/en/storage';
import { storage as zhStorage } from './locales/zh-CN/storage';
import { learning as enLearning } from './locales/en/learning';
import { learning as zhLearning } from './locales/zh-CN/learning';
import { imports as enImports } from './locales/en/imports';
import { imports as zhImports } from './locales/zh-CN/imports';
import { shell as enShell } from './locales/en/shell';
import { shell as zhShell } from './locales/zh-CN/shell';

export const resources = {
  en: { common: enCommon, chat: enChat, settings: enSettings, recall: enRecall, jobs: enJobs, memory: enMemory, backup: enBackup, write: enWrite, inspect: enInspect, storage: enStorage, learning: enLearning, imports: enImports, shell: enShell },
  'zh-CN': { common: zhCommon, chat: zhChat, settings: zhSettings, recall: zhRecall, jobs: zhJobs, memory: zhMemory, backup: zhBackup, write: zhWrite, inspect: zhInspect, storage: zhStorage, learning: zhLearning, imports: zhImports, shell: zhShell },
} as const;

export type Locale = keyof typeof resources;
export const LOCALES = Object.keys(resources) as Locale[];
export type Namespaces = (typeof resources)['en'];
