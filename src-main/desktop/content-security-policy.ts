/**
 * The console's Content-Security-Policy, put in index.html by the production build (a meta tag
 * works for file:// in the desktop app and for /console/ in a browser alike). Scripts only from the
 * app itself, no eval; inline styles are allowed because Mantine sets style attributes; data: for
 * the few inline SVG icons and fonts; requests only to the page's own origin (/trpc, /export).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
].join('; ')
