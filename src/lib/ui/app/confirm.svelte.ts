/**
 * The app's one confirmation (issue 15): every destructive action asks through `confirmAction`, and
 * one `<ConfirmHost>` in the layout shows it as a modal dialog — never the browser's `confirm()`. An
 * action that cannot be undone and takes a lot (clear all memories, erase everything) also asks the
 * person to type a word; a dialog may offer one option (keep model settings, include the profile).
 */
export interface ConfirmRequest {
  title: string;
  body: string;
  confirmLabel: string;
  /** `danger` for what deletes; the confirm button says so. */
  tone?: 'danger' | 'normal';
  /** The word to type before the confirm button works. */
  typeWord?: string;
  /** One checkbox, e.g. "Keep my model settings". */
  option?: { label: string; checked: boolean };
}

export interface ConfirmAnswer {
  confirmed: boolean;
  option: boolean;
}

interface Open extends ConfirmRequest {
  resolve: (answer: ConfirmAnswer) => void;
}

class ConfirmState {
  current = $state<Open | null>(null);

  ask(request: ConfirmRequest): Promise<ConfirmAnswer> {
    // A second question while one is open cancels the first: one dialog at a time.
    this.current?.resolve({ confirmed: false, option: false });
    return new Promise((resolve) => {
      this.current = { ...request, resolve };
    });
  }

  answer(answer: ConfirmAnswer): void {
    const open = this.current;
    this.current = null;
    open?.resolve(answer);
  }
}

export const confirmState = new ConfirmState();

/** Asks; true when the person confirmed (typed the word, where one is asked for). */
export async function confirmAction(request: ConfirmRequest): Promise<boolean> {
  return (await confirmState.ask(request)).confirmed;
}
