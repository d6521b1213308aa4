/**
 * The data the context engine's pure core (seed 004) takes and returns. The engine loads each layer's
 * source (SQL, OPFS files) and hands the items here; `assembleContext` decides what is kept, in what
 * order and in what words, and explains every cut.
 */
import type { TokenCounter } from '../text/tokens';
import type { PromptLanguage } from './prompt-language';
import type { ContextRules } from './rules';

export type LayerId = 'L0' | 'L1' | 'L2' | 'L3' | 'L4' | 'L5';

export const LAYER_IDS: readonly LayerId[] = ['L0', 'L1', 'L2', 'L3', 'L4', 'L5'];

/**
 * `ok` and `empty` are normal; `missing` (the source could not be read), `timeout` and `canceled`
 * render a fixed marker line instead of content; `degraded` renders what there is plus a marker
 * (e.g. 003's built-in default rules when the rules table is unreadable).
 */
export type LayerStatus = 'ok' | 'empty' | 'missing' | 'timeout' | 'canceled' | 'degraded';

export interface ContextItem {
  /** Stable identity and citation, e.g. `memory:abc`, `file:.engram/characters/alice.md`, `turn:42`. */
  id: string;
  /** What the item is; decides how it renders and which `context_rules` field asks for it. */
  kind: string;
  text: string;
  /** Higher is kept first when the layer is over budget (default 0, see budget.ts). */
  priority?: number;
  /** Where it came from, cited verbatim (file-backed items cite their project-relative path instead). */
  source?: string;
  /**
   * Stable sort key inside L0–L3: creation order (a row id or created_at). Never a score, an access
   * time or the current time. Items without it sort after those with it, then by id.
   */
  order?: number;
  meta?: Record<string, unknown>;
}

export interface LayerInput {
  /** Default `ok`. */
  status?: LayerStatus;
  items: ContextItem[];
  /** A short code for the inspector (e.g. `DB_UNAVAILABLE`, `disabled`); never rendered into the prompt. */
  reason?: string;
}

export interface CutRecord {
  itemId: string;
  reason: 'over-budget' | 'trimmed' | 'masked' | 'not-requested';
  tokensBefore: number;
  tokensAfter: number;
}

/** A kept item as the run records it: the text as sent, its kind, and where it lives (meta). */
export interface KeptItem {
  id: string;
  tokens: number;
  kind?: string;
  /** The text as it was given to the model (trimmed where the budget trimmed it). */
  text?: string;
  /** What the inspector needs to show and link it: a turn's role and time, a conversation's title… */
  meta?: Record<string, string | number>;
}

export interface LayerResult {
  id: LayerId;
  text: string;
  tokens: number;
  budget: number;
  status: LayerStatus;
  /** Citations of the kept items in display order, deduplicated (project-relative paths for files). */
  sources: string[];
  cut: CutRecord[];
  /** What was kept, in order: its id, tokens, and (issue 15) what a person reads in the inspector. */
  items: KeptItem[];
  /** The caller's reason code, passed through for the inspector. */
  reason?: string;
}

/** Capabilities the L0 rules may describe; one unavailable in a run is masked, never deleted from L0. */
export type Capability = 'project' | 'selection' | 'memory';

export interface AssembleInput {
  layers: Record<LayerId, LayerInput>;
  /** Per-model token budgets; absent layers use LAYERS[i].defaultBudget. */
  budgets?: Partial<Record<LayerId, number>>;
  counter: TokenCounter;
  /** The UI's language: the prompt's language when neither the message nor the selection has letters. */
  locale: 'en' | 'zh-CN';
  /** The prompt's language (prompt-language.ts); by default the message's, else the selection's, else `locale`'s. */
  language?: PromptLanguage;
  /** A skill run filters L3–L5 by its `context_rules`; without a skill (chat) every supplied item is used. */
  skill?: { id: string; rules: ContextRules };
  /**
   * Overrides for the capability flags. By default `selection` is available when L5 has a `selection`
   * item, `memory` when memory is not degraded, and `project` always (set it false without a project).
   */
  capabilities?: Partial<Record<Capability, boolean>>;
}

export interface ContextMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ContextPackage {
  layers: LayerResult[];
  /** The one language of every word the engine added. */
  language: PromptLanguage;
  /** L0–L3 text, byte-identical for identical static inputs. */
  stablePrefix: string;
  /** SHA-256 (hex) of `stablePrefix` only. */
  stablePrefixHash: string;
  /** Capability flags, L4 and L5 as one text (turns inline), for the inspector. */
  dynamicText: string;
  /** What is sent: system (prefix + flags + L4), the recent turns as native messages, then the rest of L5. */
  messages: ContextMessage[];
  /** Sum of the tokens of every message's content. */
  totalTokens: number;
  /** 003: true when L1, L2 or L4 could not be read in full. */
  memoryDegraded: boolean;
}
