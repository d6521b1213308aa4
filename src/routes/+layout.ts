// A pure client-side app: the service worker serves the shell, the data lives in the browser.
export const ssr = false;
export const prerender = false;
export const trailingSlash = 'never';
