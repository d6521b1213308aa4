import type { Preview } from '@storybook/sveltekit';
import '../src/lib/ui/styles.css';
import { i18n } from '../src/lib/ui/i18n/i18n.svelte';

/**
 * Every story as the app shows it: the app's design tokens, and English unless ?locale=zh-CN is in the
 * iframe's address (the Chinese strings are the same components, checked by their unit tests).
 */
const locale = new URLSearchParams(globalThis.location?.search ?? '').get('locale');
i18n.setLocale(locale === 'zh-CN' ? 'zh-CN' : 'en');

const preview: Preview = {
  parameters: { layout: 'padded' },
};

export default preview;
