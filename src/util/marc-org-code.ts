/**
 * A MARC organization code as the Library of Congress assigns them (`SpMaBN`, `CaOONL`, `DLC`):
 * a letter, then letters, digits, hyphens or colons, at most 16 in all. One rule for the content's
 * check of domains.csv and the MARC layer's own check of what it is given.
 */
export const MARC_ORG_CODE = /^[A-Za-z][A-Za-z0-9:-]{0,15}$/;

export const isMarcOrgCode = (code: string): boolean => MARC_ORG_CODE.test(code);
