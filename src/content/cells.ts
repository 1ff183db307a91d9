import { z } from "zod";
import { dateProblem, parseBoolean, parseDate } from "./values.ts";

/**
 * What a cell of the content may hold, as zod schemas the rows of schema.ts and domain-row.ts are
 * made of, and the fixed lists their columns take values from.
 */

export const show = (value: unknown) => JSON.stringify(value);
export const required = () => z.string({ error: "a value is required" });

export const positiveInt = () =>
  required()
    .regex(/^[1-9][0-9]{0,9}$/, {
      error: (iss) => `expected a positive integer, got ${show(iss.input)}`,
    })
    .transform(Number);

export const intBetween = (min: number, max: number) =>
  required()
    .regex(/^-?[0-9]{1,10}$/, {
      error: (iss) => `expected an integer between ${min} and ${max}, got ${show(iss.input)}`,
    })
    .transform(Number)
    .refine((n) => n >= min && n <= max, {
      error: (iss) =>
        `expected an integer between ${min} and ${max}, got ${show(String(iss.input))}`,
    });

export const oneLine = () =>
  required()
    .max(1000, { error: "is longer than 1000 characters" })
    .refine((s) => !/[\n\r\u2028\u2029]/.test(s), {
      error: "must be on one line: remove the line break",
    });

export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const slug = () =>
  required()
    .max(200, { error: "is longer than 200 characters" })
    .regex(SLUG_PATTERN, {
      error: (iss) =>
        `expected lowercase letters, digits and single hyphens (like "a-trip-to-the-moon"), got ${show(iss.input)}`,
    });

export const isoDate = () =>
  required().transform((text, ctx) => {
    const date = parseDate(text);
    if (date === undefined) {
      ctx.addIssue({ code: "custom", message: dateProblem(text) });
      return z.NEVER;
    }
    return date;
  });

export const boolean = () =>
  required().transform((text, ctx) => {
    const value = parseBoolean(text);
    if (value === undefined) {
      ctx.addIssue({ code: "custom", message: `expected true or false, got ${show(text)}` });
      return z.NEVER;
    }
    return value;
  });

/** Biographies may hold paragraphs; they are capped so one cell cannot swell every page. */
export const longText = () =>
  required().max(100_000, { error: "is longer than 100,000 characters" });

export const imagePath = () => required().max(500, { error: "is longer than 500 characters" });

export const ORDERINGS = ["name", "-name", "year", "-year"] as const;
export type Ordering = (typeof ORDERINGS)[number];

export const AUDIOVISUAL_TYPES = [
  "peliculas",
  "documentales",
  "cortometrajes",
  "artes-escenicas",
] as const;
export type AudiovisualType = (typeof AUDIOVISUAL_TYPES)[number];

export const LANGUAGES = ["es", "en", "ca", "gl", "eu", "va", "fr"] as const;
export type Language = (typeof LANGUAGES)[number];
