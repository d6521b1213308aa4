import pkg from '../../../../package.json';

/** Written into every export's `app.version`, so a file says which Engram made it. */
export const APP_VERSION: string = pkg.version;
