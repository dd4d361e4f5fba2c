// Question text in markdown (imports from Moodle turn its HTML into
// markdown), rendered safely: markdown-it with raw HTML off (a tag shows
// as text), links only to http(s), mail or this site, opened in a new tab
// without the opener; images only from this site (the CSP allows no other).
import MarkdownIt from "markdown-it";

const md = new MarkdownIt({ html: false, linkify: false, breaks: true });

const safeLink = /^(https?:\/\/|mailto:|\/(?!\/)|#)/i;
const safeImage = /^\/(?!\/)/;

md.validateLink = (url: string) => safeLink.test(url.trim());

md.renderer.rules.link_open = (tokens, i, opts, _env, self) => {
  const t = tokens[i];
  if (/^(https?:|mailto:)/i.test(String(t.attrGet("href") ?? ""))) {
    t.attrSet("target", "_blank");
    t.attrSet("rel", "noopener noreferrer nofollow");
  }
  return self.renderToken(tokens, i, opts);
};

md.renderer.rules.image = (tokens, i, opts, env, self) => {
  const t = tokens[i];
  // The alt text is the image's children rendered as plain text.
  const alt = self.renderInlineAsText(t.children ?? [], opts, env);
  if (!safeImage.test(String(t.attrGet("src") ?? ""))) return md.utils.escapeHtml(alt);
  t.attrSet("alt", alt);
  return self.renderToken(tokens, i, opts);
};

/** markdown renders a block of text (a stem, an explanation) to HTML. */
export const markdown = (text: string) => md.render(text);

/** markdownInline renders one line (an option) without a paragraph around it. */
export const markdownInline = (text: string) => md.renderInline(text);
