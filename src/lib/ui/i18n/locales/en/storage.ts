/** Storage faults and the storage page's "what uses space / free space" (issue 13). */
export const storage = {
  readOnlyBanner:
    'This device’s storage for Engram is full, so your data was opened read-only. You can read and export it; saving resumes by itself once you free some space.',
  openStorage: 'Storage settings',
  quota: {
    'read-only': 'Storage is full, so Engram opened your data read-only and could not save this. Free some space (Settings → Storage) and try again.',
  },
  readOnly: {
    title: 'Read-only: storage is full',
    help: 'Engram could not write to this device when it started. Nothing new is saved until there is room; Engram checks every few seconds and saves again as soon as it can.',
  },
  uses: {
    title: 'What uses space',
    show: 'Show what uses space',
    refresh: 'Count again',
    counting: 'Counting…',
    browser: 'In this browser',
    database: 'In the database',
    free: 'Free pages (reused by new writes)',
    areas: {
      conversations: 'Conversations, summaries and their search index',
      memories: 'Memories, profile and learned preferences',
      writing: 'Projects, chapters and context runs',
      app: 'Engram’s own bookkeeping',
    },
    kinds: {
      fileSystem: 'Database files',
      indexedDB: 'Settings, drafts and unsaved changes',
      caches: 'The app itself, for offline use',
      serviceWorkerRegistrations: 'Offline support',
      other: 'Other',
    },
  },
  free: {
    title: 'Free space',
    help: 'When storage runs out, Engram keeps everything already saved and refuses new writes with a message. To make room: export a backup, delete what you no longer need, then free space now.',
    exportLink: 'Export a backup',
    cleanupLink: 'Delete old conversations',
    reclaim: 'Free space now',
    reclaiming: 'Freeing space…',
    reclaimed: 'Returned {{size}} to the device.',
    nothingToReclaim: 'There was nothing more to return; delete some data first.',
    busy: 'Not all space could be returned yet. Try again in a moment.',
  },
};
