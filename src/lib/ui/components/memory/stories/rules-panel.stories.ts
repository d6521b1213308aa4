import { DAY_MS as DAY } from '../../../../domain/clock';
import type { Meta, StoryObj } from '@storybook/sveltekit';
import MemoryPanelStory from './memory-panel-story.svelte';
import { STORY_NOW, storyRule } from './story-engine';

/**
 * The Memory page's Preferences tab (seed 003 "记忆面板") in the states a person meets: several rules,
 * none yet, learning paused, and a conflict to settle. Each story's arg is a fixture; the real RulesState
 * and LearningState load it from a fake engine (./story-engine.ts); tests/storybook checks what each one shows.
 */
const meta = {
  title: 'Memory/Memory panel',
  component: MemoryPanelStory,
} satisfies Meta<typeof MemoryPanelStory>;

export default meta;
type Story = StoryObj<typeof meta>;

const severalRules = [
  storyRule('r-style', 'No exclamation marks in dialogue', 'style', { source: 'user', userConfirmed: true, confidence: 1 }),
  storyRule('r-plain', 'Plain words over jargon', 'vocabulary', { confidence: 0.72 }),
  storyRule('r-pacing', 'Short chapters that end on a question', 'pacing', { confidence: 0.65, driftedAt: STORY_NOW - 2 * DAY }),
  storyRule('r-voice', 'Third person, close to one character at a time', 'structure', { confidence: 0.9, userModified: true }),
];

export const SeveralRules: Story = { args: { fixture: { rules: severalRules, episodes: 42 } } };

export const Empty: Story = { args: { fixture: { rules: [], episodes: 0 } } };

export const Paused: Story = { args: { fixture: { rules: severalRules.slice(0, 2), paused: true, episodes: 17 } } };

export const Conflict: Story = {
  args: {
    fixture: {
      rules: [
        storyRule('r-short', 'Short, punchy sentences', 'style', { confidence: 0.55, conflictId: 'c-1' }),
        storyRule('r-long', 'Long, flowing sentences with many clauses', 'style', { confidence: 0.5, conflictId: 'c-1' }),
        storyRule('r-plain', 'Plain words over jargon', 'vocabulary', { confidence: 0.72 }),
      ],
      conflicts: [
        {
          id: 'c-1',
          projectId: null,
          ruleA: 'r-short',
          ruleB: 'r-long',
          dimension: 'sentence length',
          confidenceA: 0.8,
          confidenceB: 0.75,
          detectedAt: STORY_NOW - DAY,
          resolvedAt: null,
          keptRuleId: null,
        },
      ],
      episodes: 30,
    },
  },
};
