// The parts of Eleventy's template engines this program uses (the packages ship no types).
declare module "nunjucks" {
  interface Template {
    render(context: object): string;
  }
  class FileSystemLoader {
    constructor(searchPaths: string | string[], options?: { noCache?: boolean; watch?: boolean });
  }
  class Environment {
    constructor(
      loader: FileSystemLoader,
      options?: { autoescape?: boolean; throwOnUndefined?: boolean },
    );
  }
  const nunjucks: {
    FileSystemLoader: typeof FileSystemLoader;
    Environment: typeof Environment;
    compile(source: string, env: Environment, path: string, eagerCompile: boolean): Template;
    runtime: { SafeString: new (value: string) => object };
  };
  export default nunjucks;
  export type { Environment };
}

declare module "markdown-it" {
  export default class MarkdownIt {
    constructor(options?: { html?: boolean; linkify?: boolean; typographer?: boolean });
    render(source: string): string;
  }
}
