import { EN_STOP_WORDS } from './en';
import { ZH_STOP_WORDS } from './zh';

export { EN_STOP_WORDS } from './en';
export { ZH_STOP_WORDS } from './zh';

/** Both languages in one set: a token is looked up lowercased, so English case never matters. */
export const STOP_WORDS: ReadonlySet<string> = new Set([...EN_STOP_WORDS, ...ZH_STOP_WORDS]);
