/**
 * Source references must be project-relative and portable (seed 004 "来源引用必须去敏并且可移植"):
 * a citation never carries a path of the user's machine. Project settings live under the project's
 * `.engram/` folder (ARCHITECTURE §4) and are cited like `.engram/characters/alice.md`.
 */
import { EngineError } from '../errors';

const REJECTED = 'must be a project-relative path (no absolute path, drive letter, URL or `..` leaving the project)';

function reject(field: string): never {
  // The path itself is user data (it can hold a user name): it is never echoed.
  throw new EngineError('INVALID_ARGUMENT', `Invalid \`${field}\`: ${REJECTED}`, { fields: [field] });
}

/**
 * `./.engram\characters\alice.md` → `.engram/characters/alice.md`. Backslashes become slashes, `.` and
 * empty segments go, `..` is resolved inside the project. Rejected (INVALID_ARGUMENT): absolute POSIX
 * paths, `~`, drive letters (`C:\`, `C:`), UNC paths, any URL scheme (`file://`, `https:`), control
 * characters, and anything that resolves to the project root or above it.
 */
export function normaliseProjectPath(path: string, field = 'path'): string {
  if (typeof path !== 'string' || path.trim() === '') reject(field);
  // Control characters (NUL included) have no place in a citation.
  if (/\p{Cc}/u.test(path)) reject(field);
  const slashed = path.trim().replace(/\\/g, '/');
  if (slashed.startsWith('/') || slashed.startsWith('~')) reject(field);
  // `C:`, `c:/x`, `file:`, `https:` — a scheme or a drive letter both end in a colon before any slash.
  if (/^[a-z][a-z0-9+.-]*:/i.test(slashed)) reject(field);
  const out: string[] = [];
  for (const segment of slashed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) reject(field);
      out.pop();
      continue;
    }
    out.push(segment);
  }
  if (out.length === 0) reject(field);
  return out.join('/');
}

/** `file:.engram/x.md` → the normalised path, or null when the id is not file-backed. */
export function filePathOf(id: string, field: string): string | null {
  return id.startsWith('file:') ? normaliseProjectPath(id.slice('file:'.length), field) : null;
}

/** True for strings that look like a machine path or URL; such a `source` is refused everywhere. */
export function looksAbsolute(source: string): boolean {
  const s = source.trim().replace(/\\/g, '/');
  return s.startsWith('/') || s.startsWith('~') || /^[a-z]:/i.test(s) || /^file:/i.test(s);
}
