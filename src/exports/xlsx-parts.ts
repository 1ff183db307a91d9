/**
 * The parts of a one-sheet workbook, as exceljs' streaming writer (4.4) writes them for our
 * sheets: `test/exports/xlsx.unit.test.ts` writes the same sheets with exceljs and checks that every
 * part is byte-identical, on tricky and on random texts. The escaping, the dates' serial numbers
 * and the column letters are exceljs' rules, written here (its modules that do it are internal
 * files, which no release promises to keep); the theme is its text (theme.ts).
 */

export { THEME } from "./theme.ts";

/**
 * XML escaping as exceljs does it: the five markup characters as entities, and the characters XML
 * 1.0 forbids (C0 controls but tab, line feed and carriage return) and DEL dropped. Beyond
 * exceljs, U+FFFE, U+FFFF and lone surrogates are dropped too: exceljs keeps them, and the part is
 * then no XML a spreadsheet program opens.
 */
export function xmlEncode(text: string): string {
  const first = text.search(ESCAPED);
  if (first < 0) return text;
  // One pass from the first character to change, a table lookup per character (no callback per match).
  let xml = "";
  let from = 0;
  for (let at = first; at < text.length; at++) {
    const code = text.charCodeAt(at);
    let replacement = code < 128 ? REPLACEMENTS[code] : undefined;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(at + 1);
      // A pair is kept whole; a high surrogate without its low half is dropped.
      if (next >= 0xdc00 && next <= 0xdfff) at++;
      else replacement = "";
    } else if ((code >= 0xdc00 && code <= 0xdfff) || code === 0xfffe || code === 0xffff)
      replacement = "";
    if (replacement === undefined) continue;
    xml += text.slice(from, at) + replacement;
    from = at + 1;
  }
  return xml + text.slice(from);
}
// eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids, and those it escapes
const ESCAPED = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
/** What each ASCII character becomes: an entity, "" (dropped), or undefined (itself). */
const REPLACEMENTS: (string | undefined)[] = Array.from(
  { length: 128 },
  (_, code) =>
    ({ 34: "&quot;", 38: "&amp;", 39: "&apos;", 60: "&lt;", 62: "&gt;" })[code] ??
    (ESCAPED.test(String.fromCharCode(code)) ? "" : undefined),
);

/** A day's serial number as exceljs writes a date cell's value: days since 1899-12-30, UTC midnight of that day. */
export const dateSerial = (date: string): number =>
  UNIX_EPOCH_SERIAL + new Date(`${date}T00:00:00Z`).getTime() / DAY_MS;
const UNIX_EPOCH_SERIAL = 25569;
const DAY_MS = 24 * 3600 * 1000;

/** The letters of column `column` (1-based): A, B, …, Z, AA, …, XFD (16,384, the last one a sheet has). */
export function columnLetters(column: number): string {
  if (!Number.isInteger(column) || column < 1 || column > MAX_COLUMNS)
    throw new Error(`bug: column ${column} is not one of a sheet's 1 … ${MAX_COLUMNS}`);
  let letters = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}
const MAX_COLUMNS = 16_384;

const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

export const CONTENT_TYPES =
  `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '<Default Extension="vml" ContentType="application/vnd.openxmlformats-officedocument.vmlDrawing"/>' +
  '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
  '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/></Types>';

export const PACKAGE_RELS =
  `${DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  `<Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/>` +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
  `<Relationship Id="rId3" Type="${RELATIONSHIPS}/extended-properties" Target="docProps/app.xml"/></Relationships>`;

export const WORKBOOK_RELS =
  `${DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  `<Relationship Id="rId1" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/>` +
  `<Relationship Id="rId2" Type="${RELATIONSHIPS}/theme" Target="theme/theme1.xml"/>` +
  `<Relationship Id="rId3" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

export const appXml = (sheetName: string) =>
  `${DECLARATION}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` +
  "<Application>Microsoft Excel</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop>" +
  '<HeadingPairs><vt:vector size="2" baseType="variant"><vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>1</vt:i4></vt:variant></vt:vector></HeadingPairs>' +
  `<TitlesOfParts><vt:vector size="1" baseType="lpstr"><vt:lpstr>${xmlEncode(sheetName)}</vt:lpstr></vt:vector></TitlesOfParts>` +
  "<Company></Company><LinksUpToDate>false</LinksUpToDate><SharedDoc>false</SharedDoc><HyperlinksChanged>false</HyperlinksChanged><AppVersion>16.0300</AppVersion></Properties>";

export interface CoreProperties {
  creator: string;
  title: string;
  subject: string;
  language: string;
  keywords: string;
  /** YYYY-MM-DD: created and modified at its midnight (UTC). */
  date: string;
}

export const coreXml = ({ creator, title, subject, language, keywords, date }: CoreProperties) =>
  `${DECLARATION}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
  `<dc:creator>${xmlEncode(creator)}</dc:creator><dc:title>${xmlEncode(title)}</dc:title><dc:subject>${xmlEncode(subject)}</dc:subject>` +
  `<dc:language>${xmlEncode(language)}</dc:language><cp:keywords>${xmlEncode(keywords)}</cp:keywords><cp:lastModifiedBy>${xmlEncode(creator)}</cp:lastModifiedBy>` +
  `<dcterms:created xsi:type="dcterms:W3CDTF">${date}T00:00:00Z</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${date}T00:00:00Z</dcterms:modified></cp:coreProperties>`;

export const workbookXml = (sheetName: string) =>
  `${DECLARATION}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${RELATIONSHIPS}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x15" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main">` +
  '<fileVersion appName="xl" lastEdited="5" lowestEdited="5" rupBuild="9303"/><workbookPr defaultThemeVersion="164011" filterPrivacy="1"/>' +
  `<sheets><sheet sheetId="1" name="${xmlEncode(sheetName)}" state="visible" r:id="rId3"/></sheets><calcPr calcId="171027"/></workbook>`;

/** Style indexes (cellXfs) of the cells: plain, the bold header, and dates (present only in a sheet that has a date). */
const HEADER_STYLE = 1;
export const DATE_STYLE = 2;

/** The styles: the default font and a bold one for the header; a date format only when a date cell uses it. */
export const stylesXml = (dateFormat: string | null) =>
  `${DECLARATION}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac x16r2" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" xmlns:x16r2="http://schemas.microsoft.com/office/spreadsheetml/2015/02/main">` +
  (dateFormat === null
    ? ""
    : `<numFmts count="1"><numFmt numFmtId="164" formatCode="${xmlEncode(dateFormat)}"/></numFmts>`) +
  '<fonts count="2" x14ac:knownFonts="1"><font><color theme="1"/><family val="2"/><scheme val="minor"/><sz val="11"/><name val="Calibri"/></font><font><b/><family val="2"/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  `<cellXfs count="${dateFormat === null ? 2 : 3}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>` +
  (dateFormat === null
    ? ""
    : '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>') +
  '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="0"/>' +
  '<tableStyles count="0" defaultTableStyle="TableStyleMedium2" defaultPivotStyle="PivotStyleLight16"/>' +
  '<extLst><ext uri="{EB79DEF2-80B8-43e5-95BD-54CBDDF9020C}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"><x14:slicerStyles defaultSlicerStyle="SlicerStyleLight1"/></ext>' +
  '<ext uri="{9260A510-F301-46a8-8635-F512D64BE5F5}" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main"><x15:timelineStyles defaultTimelineStyle="TimeSlicerStyleLight1"/></ext></extLst></styleSheet>';

/**
 * The sheet part up to its data rows: the frozen header pane, the column widths (neighbours of the
 * same width in one element, as exceljs merges them; none of the default width) and the header
 * row, bold.
 */
export function sheetOpening(headers: readonly string[], widths: readonly number[]): string {
  let cols = "";
  for (let first = 0; first < widths.length;) {
    let last = first;
    while (last + 1 < widths.length && widths[last + 1] === widths[first]) last++;
    // A column of the default width is left out (exceljs counts it as a default column).
    if (widths[first] !== DEFAULT_WIDTH)
      cols += `<col min="${first + 1}" max="${last + 1}" width="${widths[first]}" customWidth="1"/>`;
    first = last + 1;
  }
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac">' +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15" outlineLevelRow="0" outlineLevelCol="0" x14ac:dyDescent="55"/>' +
    (cols === "" ? "" : `<cols>${cols}</cols>`) +
    `<sheetData><row r="1"${headers.length > 0 ? ` spans="1:${headers.length}"` : ""} s="${HEADER_STYLE}" customFormat="1" x14ac:dyDescent="0.25">` +
    headers
      .map((text, i) => textCell(`${columnLetters(i + 1)}1`, text, ` s="${HEADER_STYLE}"`))
      .join("") +
    "</row>"
  );
}

/** exceljs' default column width, in characters. */
const DEFAULT_WIDTH = 9;

/** The sheet part after its data rows: the autofilter over the header and `rowCount` rows, the page setup. */
export const sheetClosing = (columnCount: number, rowCount: number) =>
  `</sheetData><autoFilter ref="A1:${columnLetters(columnCount)}${rowCount + 1}"/>` +
  '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>' +
  '<pageSetup orientation="portrait" horizontalDpi="4294967295" verticalDpi="4294967295" scale="100" fitToWidth="1" fitToHeight="1"/></worksheet>';

/**
 * A text cell as an inline rich-text string (`t="inlineStr"`), `xml:space="preserve"` when the
 * text written (the characters XML forbids dropped: a vertical tab is white space to `\s`) starts
 * or ends with white space or holds a line break.
 */
export function textCell(ref: string, text: string, style = ""): string {
  const xml = xmlEncode(text);
  const preserve = PRESERVE.test(xml) ? ' xml:space="preserve"' : "";
  return `<c r="${ref}"${style} t="inlineStr"><is><r><t${preserve}>${xml}</t></r></is></c>`;
}
const PRESERVE = /^\s|\n|\s$/;
