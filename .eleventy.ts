import type { EleventyConfig } from "@11ty/eleventy";
import { pagePath, type SiteData, type SitePage } from "./src/site/model.ts";
import { renderPage } from "./src/site/templates/page.ts";

/**
 * Eleventy configuration of the HTML catalogue (src/site/eleventy.ts passes it as configPath).
 *
 * The site has a single template, paginated one item per page over the global data
 * `catalogue.entries` that the build adds: every page of a domain, already planned from the model
 * (src/site/model.ts), so nothing reads the CSVs again, each in the language versions of the
 * domain's site that need rendering (see renderPages in src/site/eleventy.ts). The template is a virtual
 * `11ty.js` template whose render function is a TypeScript template literal
 * (src/site/templates/), the fastest engine Eleventy has: tens of thousands of pages per build.
 */
export default function (eleventyConfig: EleventyConfig) {
  // The build reports its own progress; Eleventy's summary and benchmark notes would be noise.
  eleventyConfig.setQuietMode(true);
  // Eleventy 3.1 creates this benchmark group before quiet mode applies, so it would still print
  // "[11ty] Benchmark … Transform" on big builds (the transform hands pages to the output).
  eleventyConfig.benchmarks?.config?.setIsVerbose(false);
  // Nothing in the input folder is a template: the one template is virtual.
  eleventyConfig.setTemplateFormats(["11ty.js"]);
  eleventyConfig.addTemplate(
    "catalogue.11ty.js",
    {
      async render(data: { versions: SitePage[]; catalogue: SiteData }) {
        const run = data.catalogue;
        if (run.failure !== null) return "";
        try {
          // Eleventy gives a page one output: the page's other language versions are handed to
          // the output from here, the first one through Eleventy's transform (src/site/eleventy.ts).
          const [first, ...others] = data.versions;
          for (const page of others) await run.output(pagePath(page), renderPage(page));
          return renderPage(first!);
        } catch (error) {
          // Kept for the runner to rethrow as it is (see SiteData).
          run.failure = error;
          return "";
        }
      },
    },
    {
      pagination: { data: "catalogue.entries", size: 1, alias: "versions" },
      permalink: (data: { versions: SitePage[] }) => pagePath(data.versions[0]!),
      // No page lists other pages through Eleventy's collections: skip building them.
      eleventyExcludeFromCollections: true,
    },
  );
}
