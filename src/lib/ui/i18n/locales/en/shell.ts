/** The app's frame (issue 15): notices, navigation, the confirmation dialog, erase, counted nouns. */
export const shell = {
  units: {
    memories_one: '{{count}} memory',
    memories_other: '{{count}} memories',
    historyEntries_one: '{{count}} history entry',
    historyEntries_other: '{{count}} history entries',
    profileLines_one: '{{count}} profile line',
    profileLines_other: '{{count}} profile lines',
    profileVersions_one: '{{count}} profile version',
    profileVersions_other: '{{count}} profile versions',
  },
} as const;
