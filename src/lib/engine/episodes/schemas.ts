/** zod inputs of the writing-memory calls (contract section "writing memory that learns", issue 17). */
import { z } from 'zod';
import { SCENE_TYPES } from '../../domain/episodes/scene-type';

const id = z.string().min(1).max(100);
const skillId = z.string().regex(/^[a-z][a-z0-9-]{1,40}$/, 'a skill id');
const text = z.string().max(200_000);
export const sceneType = z.enum(SCENE_TYPES);
const sampleRefs = z
  .array(z.union([z.strictObject({ documentId: id, from: z.number().int().min(0), to: z.number().int().min(0) }), z.strictObject({ messageId: z.number().int().positive() })]))
  .max(20)
  .default([]);

/** 003 memory:episode:record — an outcome (what the user did with the candidates)… */
const outcome = z
  .strictObject({
    /** The skill run; without one, name the skill (and project/chapter) yourself. */
    runId: id.optional(),
    skillId: skillId.optional(),
    projectId: id.optional(),
    documentId: id.optional(),
    /** The passage the skill ran on (when there is no run, or it was not built on a chapter). */
    input: text.optional(),
    candidates: z.array(text).min(1).max(5),
    /** The chosen candidate, or -1 when every candidate was rejected. */
    selectedIndex: z.number().int().min(-1).max(4),
    /** What the user kept (the chosen candidate, maybe edited). */
    finalText: text.optional(),
    /** 003 explicit feedback: what the user wrote about it. */
    explicit: z.string().trim().max(2000).optional(),
    sampleRefs,
  })
  .refine((v) => (v.runId === undefined) !== (v.skillId === undefined), { message: 'give `runId` or `skillId` (for an episode without a run), not both', path: ['runId'] })
  .refine((v) => v.runId === undefined || (v.projectId === undefined && v.documentId === undefined), { message: 'the run names its project and chapter', path: ['projectId'] });

/** …or the undo of an output the user had accepted (003 延迟负反馈). */
const undo = z.strictObject({ runId: id, undo: z.literal(true), sampleRefs });

export const episodeRecord = z.union([undo, outcome]);

export const episodeQuery = z.strictObject({
  /** A project's episodes; null: those of no project; absent: all. */
  projectId: id.nullable().optional(),
  sceneType: sceneType.optional(),
  text: z.string().max(20_000),
  limit: z.number().int().min(1).max(5).default(5),
});

export const episodeList = z.strictObject({
  projectId: id.nullable().optional(),
  sceneType: sceneType.optional(),
  skillId: skillId.optional(),
  kind: z.enum(['skill-run', 'session', 'verdict']).optional(),
  documentId: id.optional(),
  limit: z.number().int().min(1).max(200).default(20),
  offset: z.number().int().min(0).default(0),
});

export const distillTrigger = z.enum(['batch', 'idle', 'manual', 'conflict']);

const ruleKey = z.string().min(1).max(200);
const basis = z.array(z.strictObject({ pattern: ruleKey, pole: z.string().min(1).max(60) })).min(1).max(4);
const ids = z.array(id).max(10_000);

export const distillApply = z.strictObject({
  distillId: id,
  rules: z
    .array(
      z.strictObject({
        scope: z.enum(['global', 'project']),
        projectId: id.nullable(),
        key: ruleKey,
        rule: z.string().trim().min(1).max(500),
        category: z.enum(['style', 'structure', 'character', 'pacing', 'vocabulary']),
        confidence: z.number().min(0).max(1),
        supporting: ids,
        contradicting: ids,
        basis,
        change: z.enum(['create', 'update', 'drift']),
        phrasedBy: z.enum(['template', 'model']),
      }).refine((r) => (r.scope === 'project') === (r.projectId !== null), { message: 'a project rule names its project, a global one none', path: ['projectId'] }),
    )
    .max(500),
  refresh: z.array(z.strictObject({ ruleId: id, confidence: z.number().min(0).max(1), supporting: ids, contradicting: ids })).max(500),
});
