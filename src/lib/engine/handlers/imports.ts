import type { Services } from '../services';
import type { Handlers } from './index';

type ImportMethod = 'import.preview' | 'import.reading' | 'import.applyStep' | 'import.finish' | 'import.cancel' | 'import.followUp' | 'import.status' | 'export.markdown';

export function importHandlers(s: Services): Handlers<ImportMethod> {
  const i = s.imports;
  return {
    'import.preview': (input) => i.imports.preview(input),
    'import.reading': () => i.imports.reading(),
    'import.applyStep': (input) => i.imports.applyStep(input.token),
    'import.finish': (input) => i.imports.finish(input.token),
    'import.cancel': (input) => i.imports.cancel(input.token),
    'import.followUp': (input) => i.followUp.run(input.limit),
    'import.status': () => i.status(),
    'export.markdown': (input) => i.markdown.export(input.scope, input.locale),
  };
}
