// Just enough Markdown for the rules notes (headings, lists, paragraphs, **bold**, `code`), built as
// elements rather than HTML strings, so nothing in a notes file can inject markup.
import { html } from "./html.js";

function inline(text) {
  return text.split(/(\*\*[^*]+\*\*|`[^`]+`)/).map((part) =>
    part.startsWith("**") && part.endsWith("**") && part.length > 4 ? html`<strong>${part.slice(2, -2)}</strong>`
      : part.startsWith("`") && part.endsWith("`") && part.length > 2 ? html`<code>${part.slice(1, -1)}</code>` : part);
}

export function markdown(text) {
  const blocks = [];
  let paragraph = [];
  let list = null;
  const flush = () => {
    if (paragraph.length) blocks.push(html`<p>${inline(paragraph.join(" "))}</p>`);
    paragraph = [];
    if (list) blocks.push(html`<ul>${list.map((item) => html`<li>${inline(item)}</li>`)}</ul>`);
    list = null;
  };
  for (const line of text.split("\n")) {
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(heading[1].length + 1, 4); // the page's own h1 is the title
      blocks.push(html`<${`h${level}`}>${inline(heading[2])}<//>`);
    } else if (item) {
      if (paragraph.length) flush();
      (list ||= []).push(item[1]);
    } else if (!line.trim()) {
      flush();
    } else if (list && /^\s+/.test(line)) {
      list[list.length - 1] += ` ${line.trim()}`; // a list item's continuation line
    } else {
      if (list) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}
