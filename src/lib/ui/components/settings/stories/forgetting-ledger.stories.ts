import { DAY_MS } from '../../../../domain/clock';
import type { LedgerEntry } from '../../../../engine/lifecycle/types';
import type { Meta, StoryObj } from '@storybook/sveltekit';
import LedgerStory from './ledger-story.svelte';

/** Issue 19: what Engram forgot on purpose — faded, compressed, deleted — and "Keep this" for what still exists. */
const meta = {
  title: 'Settings/Forgetting ledger',
  component: LedgerStory,
} satisfies Meta<typeof LedgerStory>;

export default meta;
type Story = StoryObj<typeof meta>;

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const entry = (id: number, over: Partial<LedgerEntry>): LedgerEntry => ({
  id,
  itemType: 'episode',
  itemId: `ep-${id}`,
  projectId: 'p-1',
  action: 'faded',
  reason: 'decay',
  decay: 0.21,
  text: 'Dialogue · polish',
  createdAt: NOW - id * DAY_MS,
  keptAt: null,
  exists: true,
  ...over,
});

export const SeveralForgotten: Story = {
  args: {
    now: NOW,
    entries: [
      entry(1, { text: 'Action scene · continue' }),
      entry(2, { action: 'compressed', reason: 'ttl', decay: null, text: 'Inner monologue · polish' }),
      entry(3, { itemType: 'rule', itemId: 'r-1', action: 'deleted', reason: 'budget', decay: null, text: 'Prefers short chapters', exists: false }),
      entry(4, { text: 'Description · continue', keptAt: NOW - DAY_MS }),
    ],
  },
};

export const NothingForgotten: Story = { args: { now: NOW, entries: [] } };
