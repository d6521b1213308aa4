import { chromium, type BrowserContext } from '@playwright/test';
import { rmSync } from 'node:fs';

/** Chromium flags every bench run uses: no network side-traffic of the browser's own (QUIC, updates, sync). */
const QUIET_ARGS = ['--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];

/**
 * Debian's Chromium (CHROMIUM_PATH or /usr/bin/chromium, never a downloaded one), headless, in a fresh profile —
 * so a fresh OPFS: the directory is emptied first. `args` are added to the quiet flags.
 */
export async function launchBenchChromium(profileDir: string, args: string[] = []): Promise<BrowserContext> {
  rmSync(profileDir, { recursive: true, force: true });
  return chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [...args, ...QUIET_ARGS],
  });
}
