// What makes a page whole, checked in the browser: shared by the page tests
// (Playwright, over the scripted backend) and the desktop end-to-end test
// (WebDriver, the real app). Each function runs inside the page, so it
// uses nothing from outside itself.

/** The sentences (longer than 30 characters) said more than once on the
 *  page: the text of every paragraph, list item, table cell and definition,
 *  folded away or not, split at full stops. A byline (`data-byline`) names
 *  a post's author and year, it says nothing: two posts may share one. A
 *  figure in a table's number column (`td.num`) is data, not a sentence:
 *  each claim's table of runs shows the cells it rests on, and claims
 *  share cells. */
export function repeatedSentences() {
  const seen = new Map();
  for (const el of document.querySelectorAll('p:not([data-byline]), li, td:not(.num), dd')) {
    // An element's own text: a list item's nested list is counted as its own.
    const clone = el.cloneNode(true);
    clone.querySelectorAll('p, li, td, dd, ul, ol, table, dl').forEach((n) => n.remove());
    for (const raw of clone.textContent.split('. ')) {
      const sentence = raw.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
      if (sentence.length > 30) seen.set(sentence, (seen.get(sentence) ?? 0) + 1);
    }
  }
  return [...seen].filter(([, n]) => n > 1).map(([sentence, n]) => `${n}× ${sentence}`);
}

/** How far the page scrolls sideways, in pixels (0 when it does not). */
export function sidewaysScroll() {
  const root = document.scrollingElement;
  return Math.max(0, root.scrollWidth - root.clientWidth);
}
