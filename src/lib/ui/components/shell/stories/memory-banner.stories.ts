import type { Meta, StoryObj } from '@storybook/sveltekit';
import BannerStory from './banner-story.svelte';

/** Seed 003 记忆系统降级策略: the banner while the memory cannot be read, and nothing once it can. */
const meta = {
  title: 'Shell/No-memory banner',
  component: BannerStory,
} satisfies Meta<typeof BannerStory>;

export default meta;
type Story = StoryObj<typeof meta>;

export const MemoryUnavailable: Story = { args: { degraded: true } };

export const MemoryReadable: Story = { args: { degraded: false } };
