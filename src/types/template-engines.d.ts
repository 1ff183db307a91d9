// The parts of Eleventy's Markdown engine this program uses (the package ships no types).
declare module "markdown-it" {
  export default class MarkdownIt {
    constructor(options?: { html?: boolean; linkify?: boolean; typographer?: boolean });
    render(source: string): string;
  }
}
