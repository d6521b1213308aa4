import { z } from 'zod';

export const themeSchema = z.enum(['system', 'light', 'dark']).default('system');
export type ThemeChoice = z.output<typeof themeSchema>;
const KEY = 'engram.theme';

export function readTheme(): ThemeChoice {
  try {
    return themeSchema.parse(localStorage.getItem(KEY) ?? undefined);
  } catch {
    return 'system';
  }
}

/** Applies and remembers the theme (localStorage mirrors it so the first paint is already right). */
export function applyTheme(choice: ThemeChoice): void {
  const dark = choice === 'dark' || (choice === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  try {
    localStorage.setItem(KEY, choice);
  } catch {
    /* private mode */
  }
}
