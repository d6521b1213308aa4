/** The recall result types live with the pipeline that makes them (domain/recall/types.ts). */
export type { ConversationHit, RecallExplain, RecallHit, RecallQueryInfo, RecallResponse } from '../../domain/recall/types';
