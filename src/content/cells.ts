import { z } from "zod";
import { INTEGER, LIMITS, LINE_BREAK, POSITIVE_INT } from "./row-limits.ts";
import { dateProblem, parseBoolean, parseDate } from "./values.ts";

/**
 * What a cell of the content may hold, as zod schemas the rows of schema.ts and domain-row.ts are
 * made of, and the fixed lists their columns take values from.
 */

export const show = (value: unknown) => JSON.stringify(value);
export const required = () => z.string({ error: "a value is required" });

/**
 * A limit as the messages write it: four digits plain, more grouped by commas ("1000",
 * "100,000"). By hand, not Intl.NumberFormat: making a formatter loads ICU's number data, which
 * every command that checks the content (a build with nothing to do, too) would pay on start.
 */
const count = (n: number) =>
  n < 10_000 ? String(n) : String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
/** A string of at most `max` characters. */
const upTo = (max: number) =>
  required().max(max, { error: `is longer than ${count(max)} characters` });

export const positiveInt = () =>
  required()
    .regex(POSITIVE_INT, {
      error: (iss) => `expected a positive integer, got ${show(iss.input)}`,
    })
    .transform(Number);

export const intBetween = ([min, max]: readonly [number, number]) =>
  required()
    .regex(INTEGER, {
      error: (iss) => `expected an integer between ${min} and ${max}, got ${show(iss.input)}`,
    })
    .transform(Number)
    .refine((n) => n >= min && n <= max, {
      error: (iss) =>
        `expected an integer between ${min} and ${max}, got ${show(String(iss.input))}`,
    });

export const oneLine = () =>
  upTo(LIMITS.oneLine).refine((s) => !LINE_BREAK.test(s), {
    error: "must be on one line: remove the line break",
  });

export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const slug = () =>
  upTo(LIMITS.slug).regex(SLUG_PATTERN, {
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
export const longText = () => upTo(LIMITS.longText);

export const imagePath = () => upTo(LIMITS.imagePath);

/** A one-line cell checked further by its own rules (a URL template). */
export const lineOfText = () => upTo(LIMITS.oneLine);

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
