/**
 * Project setting files (seed 004 "设定文件化"): character cards, world notes and the style guide live as
 * Markdown files under the project's `.engram/` folder, where the skills' `context_rules` find them
 * (`characters` → `.engram/characters/`, `project-settings` → `.engram/world/`, `style` → `.engram/style/`).
 * Paths are always project-relative; the engine checks them again (INVALID_ARGUMENT naming `path`).
 */
import type { ProjectFileEntry } from '../../../engine/context/types';

export const SETTINGS_FOLDERS = ['characters', 'world', 'style'] as const;
export type SettingsFolder = (typeof SETTINGS_FOLDERS)[number];

export type FileNameProblem = 'empty' | 'too-long' | 'invalid';

const MAX_NAME = 80;
/** Path separators, characters no file system accepts, control characters; a leading dot hides a file. */
const FORBIDDEN = /[/\\:*?"<>|\p{Cc}]|^\.|\.\.|^\s|\s$/u;

/** `Alice` → `.engram/characters/Alice.md`; the name may be Chinese, may hold spaces inside. */
export function settingsFilePath(folder: SettingsFolder, rawName: string): { ok: true; path: string } | { ok: false; problem: FileNameProblem } {
  const name = rawName.trim().replace(/\.md$/i, '');
  if (name === '') return { ok: false, problem: 'empty' };
  if (Array.from(name).length > MAX_NAME) return { ok: false, problem: 'too-long' };
  if (FORBIDDEN.test(name)) return { ok: false, problem: 'invalid' };
  return { ok: true, path: `.engram/${folder}/${name}.md` };
}

/** The folder a listed file belongs to, or null for files elsewhere under `.engram/`. */
export function folderOf(path: string): SettingsFolder | null {
  const parts = path.split('/');
  if (parts.length !== 3 || parts[0] !== '.engram') return null;
  return (SETTINGS_FOLDERS as readonly string[]).includes(parts[1] as string) ? (parts[1] as SettingsFolder) : null;
}

/** The file's name as the list shows it (`Alice`), the folder being its heading. */
export function fileLabel(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.md$/i, '');
}

export type GroupedFiles = Record<SettingsFolder | 'other', ProjectFileEntry[]>;

export function groupFiles(entries: readonly ProjectFileEntry[]): GroupedFiles {
  const out: GroupedFiles = { characters: [], world: [], style: [], other: [] };
  for (const e of entries) out[folderOf(e.path) ?? 'other'].push(e);
  return out;
}
