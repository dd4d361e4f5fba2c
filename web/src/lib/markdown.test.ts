import { describe, expect, it } from "vitest";
import { markdown, markdownInline } from "./markdown";

describe("markdown", () => {
  it("renders emphasis, lists and tables' cousins", () => {
    expect(markdown("A **65-year-old** man:\n\n- fever\n- cough")).toBe("<p>A <strong>65-year-old</strong> man:</p>\n<ul>\n<li>fever</li>\n<li>cough</li>\n</ul>\n");
    expect(markdownInline("*Gamma* rays")).toBe("<em>Gamma</em> rays");
  });
  it("shows raw HTML as text", () => {
    expect(markdown('<script>alert(1)</script><img src=x onerror="alert(1)">')).not.toMatch(/<script|<img/);
    expect(markdownInline("<b>bold</b>")).toBe("&lt;b&gt;bold&lt;/b&gt;");
  });
  it("keeps only safe links, opened without the opener", () => {
    expect(markdownInline("[x](javascript:alert(1))")).toBe("[x](javascript:alert(1))");
    expect(markdownInline("[x](data:text/html,hi)")).not.toContain("<a");
    expect(markdownInline("[x](//evil.example/)")).not.toContain("<a");
    expect(markdownInline("[x](https://example.org/a)")).toBe('<a href="https://example.org/a" target="_blank" rel="noopener noreferrer nofollow">x</a>');
    expect(markdownInline("[x](/articles/heart)")).toBe('<a href="/articles/heart">x</a>');
  });
  it("keeps images from this site only", () => {
    expect(markdownInline("![ECG](/uploads/ecg.png)")).toBe('<img src="/uploads/ecg.png" alt="ECG">');
    expect(markdownInline("![ECG](https://evil.example/t.png)")).toBe("ECG");
  });
});
