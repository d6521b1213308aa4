/**
 * What "Test connection" tells the person (issue 15): a server that answered and listed its models while
 * the model field is empty is *connected* — "Connected — 12 models; pick one" — not a failure. The model
 * chosen since the test is judged against the list the server gave, so picking one turns the result
 * right without another test. A result is only shown for the connection it tested (`resultKey`).
 */
import type { ConnectionReport } from '../../../domain/llm/types';

export type TestTone = 'ok' | 'warn' | 'fail';

export interface TestOutcome {
  tone: TestTone;
  /** settings:model.result.* */
  headline: 'ok' | 'connectedPick' | 'failed';
  /** Whether the failure's reason and message are worth showing (not when the only "failure" is no model chosen). */
  showReason: boolean;
  /** Whether the model now in the form is on the server's list; null when unknown or no model is given. */
  modelFound: boolean | null;
}

export function testOutcome(report: ConnectionReport, model: string): TestOutcome {
  const listed = report.models.length > 0;
  const modelFound = model === '' ? null : listed ? report.models.includes(model) : report.modelFound;
  const onlyNoModel = !report.ok && report.error?.reason === 'no-model-configured' && listed;
  if (onlyNoModel && modelFound === true) return { tone: 'ok', headline: 'ok', showReason: false, modelFound };
  if (onlyNoModel) return { tone: 'warn', headline: 'connectedPick', showReason: false, modelFound };
  if (!report.ok && report.error?.reason === 'unknown-model' && modelFound === true) return { tone: 'ok', headline: 'ok', showReason: false, modelFound };
  return { tone: report.ok ? 'ok' : 'fail', headline: report.ok ? 'ok' : 'failed', showReason: !report.ok, modelFound };
}

/** The parts of the form a test's result belongs to; when one changes (or the form is saved), the result is stale. */
export function resultKey(form: { provider: string; baseUrl: string; apiKey: string }): string {
  return JSON.stringify([form.provider, form.baseUrl.trim(), form.apiKey]);
}
