/**
 * Imports from other apps and readable exports (issue 14): pure readers of each format's public shape,
 * the plan of how an import meets the database, and the Markdown layouts.
 *
 *   json-array-splitter ─▶ chatgpt / claude (one conversation at a time)
 *   sillytavern-chat · lorebook · logs (one file at a time)  ─▶ ImportedConversation / ImportedFile
 *   plan (add · extend · same · changed; turn numbers) · times (fill gaps) · markdown (exports)
 */
export * from './chatgpt';
export * from './claude';
export * from './detect';
export * from './json-array-splitter';
export * from './labels';
export * from './limits';
export * from './logs';
export * from './lorebook';
export * from './markdown';
export * from './plan';
export * from './sillytavern-chat';
export * from './stable-id';
export * from './times';
export * from './types';
