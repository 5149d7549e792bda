// A board's own stylesheet, added to the page once. A constructed stylesheet (CSSOM), not a <style> element:
// the page's Content-Security-Policy takes style elements from files only (services/api/security_headers.py).
const adopted = new Set();

export function adoptStyle(id, css) {
  if (adopted.has(id)) return;
  adopted.add(id);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
