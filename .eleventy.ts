import type { EleventyConfig } from "@11ty/eleventy";
import { pagePath, type SiteData, type SitePage } from "./src/site/model.ts";
import { renderPage } from "./src/site/templates/index.ts";

/**
 * Eleventy configuration of the HTML catalogue (src/site/eleventy.ts passes it as configPath).
 *
 * The site has a single template, paginated one page per item over the global data
 * `catalogue.pages` that the build adds: every page of every domain, already planned from the
 * model (src/site/model.ts), so nothing reads the CSVs again. The template is a virtual
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
      render(data: { sitePage: SitePage; catalogue: SiteData }) {
        const run = data.catalogue;
        if (run.failure !== null) return "";
        try {
          return renderPage(data.sitePage);
        } catch (error) {
          // Kept for the runner to rethrow as it is (see SiteData).
          run.failure = error;
          return "";
        }
      },
    },
    {
      pagination: { data: "catalogue.pages", size: 1, alias: "sitePage" },
      permalink: (data: { sitePage: SitePage }) => pagePath(data.sitePage),
      // No page lists other pages through Eleventy's collections: skip building them.
      eleventyExcludeFromCollections: true,
    },
  );
}
