/**
 * The anchors GitHub gives a markdown file's headings, shared by the reference generator
 * (scripts/reference-docs.ts, which links to its own headings) and the docs test
 * (tests/docs/docs.test.ts, which checks every `#anchor` of the shipped docs).
 *
 * The rules are github-slugger's, which follows github.com's renderer: the heading's text is
 * lowercased; every character is dropped except letters, marks, decimal and letter numbers,
 * connector punctuation (`_`), spaces and hyphens; each space becomes a hyphen; a slug met again
 * in the same file gets `-1`, `-2`, … (the first suffix not already taken).
 *
 * Not github-slugger itself: its current major (2.0.0) is an ES module only, for a CommonJS
 * toolchain (`npm run docs`, jest through ts-jest), and the slug it would replace is the smallest
 * part here (a regex and a counter); the heading text and a page's anchors, which it does not do,
 * are the rest.
 */

/** What github-slugger keeps: the complement of the Unicode categories it strips. */
const dropped = /[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\p{Alphabetic} -]/gu;

/** A heading text's slug, before de-duplication. */
export const githubSlug = (text: string): string => text.toLowerCase().replace(dropped, "").replace(/ /g, "-");

/** Slugs of one file's headings, in order: a repeated slug gets the next free numeric suffix. */
export class HeadingSlugger {
  private readonly occurrences = new Map<string, number>();

  slug(text: string): string {
    const base = githubSlug(text);
    let result = base;
    while (this.occurrences.has(result)) {
      const n = this.occurrences.get(base)! + 1;
      this.occurrences.set(base, n);
      result = `${base}-${n}`;
    }
    this.occurrences.set(result, 0);
    return result;
  }
}

/**
 * The text GitHub renders for a heading's inline markdown: code spans literal, links and images
 * as their text, emphasis markers, HTML tags and backslash escapes removed.
 */
export function headingText(inline: string): string {
  const spans: string[] = [];
  const withoutCode = inline.replace(/(`+)([\s\S]*?)\1/g, (_, _ticks, content: string) => {
    spans.push(content.trim());
    return `\u0000${spans.length - 1}\u0000`;
  });
  return withoutCode
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/\*+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, "")
    .replace(/\\(.)/g, "$1")
    .replace(/\u0000(\d+)\u0000/g, (_, i: string) => spans[Number(i)]!)
    .trim();
}

/**
 * Every anchor a markdown file has on GitHub: its headings' slugs (ATX `#` headings and setext
 * `===`/`---` underlines, outside code fences) and the ids and names of its HTML anchors.
 */
export function markdownAnchors(markdown: string): Set<string> {
  const slugger = new HeadingSlugger();
  const anchors = new Set<string>();
  let fence: string | undefined;
  let previous = "";
  for (const line of markdown.split("\n")) {
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = undefined;
      previous = "";
      continue;
    }
    if (fenceMark) {
      fence = fenceMark;
      previous = "";
      continue;
    }
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) anchors.add(slugger.slug(headingText(atx[1] ?? "")));
    else if (/^ {0,3}(=+|-+)[ \t]*$/.test(line) && previous.trim() !== "" && !previous.trimStart().startsWith("|"))
      anchors.add(slugger.slug(headingText(previous)));
    for (const [, id] of line.matchAll(/<a\s[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(id!);
    previous = atx ? "" : line;
  }
  return anchors;
}
