/**
 * `text` when a link or an image may use it: an absolute http(s) URL, or an address on this site
 * (a path such as `/covers/1.jpg`), as the browser reads it (the same URL parser); else undefined:
 * `javascript:`, `data:`, another site's address written as a path (`//host`, `/\host`), or a
 * broken one. Addresses in data come from outside sources and imported files, which the screens
 * do not trust to be web pages.
 */
export function webAddress(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  try {
    const url = new URL(text, window.location.href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    // Written with its scheme, it may be any web page; written as a path, it must stay here.
    const absolute = /^[a-z][a-z\d+.-]*:/i.test(text);
    return absolute || url.origin === window.location.origin ? text : undefined;
  } catch {
    return undefined;
  }
}
