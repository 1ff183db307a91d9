/**
 * An offline copy is opened from file://, where a link to a folder (`audiovisual-detail/1/x/`)
 * shows a directory listing instead of its page. In the archive's HTML, relative links to
 * folders point at their `index.html`. Links into the API stay as they are (the API needs a
 * server), and so do absolute, root-relative and in-page links.
 */
const FOLDER_LINK = /(\shref=")((?![a-z][a-z0-9+.-]*:|\/|#)(?![^"]*api\/v1\/)[^"#?]*\/)(?=["#?])/gi;

export function offlineHtml(html: string): string {
  return html.replace(FOLDER_LINK, "$1$2index.html");
}
