// Files handed to the browser to save (src/wiring/save-file.ts clicks an <a download>): happy-dom would follow the
// blob: link and leave the window on it, so while a suite runs a click on such a link records the file instead. The
// link's click is replaced in the suite's before() and given back in its after(): every view test file is imported
// before any suite runs, so a replacement made at a file's top would be undone or hidden by another file's.
import type { Test } from 'uvu'

export interface SavedFile {
  fileName: string
  /** The link's scheme (`blob:`): the file was handed over, not fetched from an address. */
  type: string
}

/** The files `suite` saves, in order, into `saved` (a new list unless given); emptied by `saved.length = 0` between tests. */
export function recordDownloads(suite: Test<any>, saved: SavedFile[] = []): SavedFile[] {
  let click: HTMLAnchorElement['click'] | undefined
  suite.before(() => {
    click = HTMLAnchorElement.prototype.click
    const original = click
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (!this.download) return original.call(this)
      saved.push({ fileName: this.download, type: this.href.slice(0, 5) })
    }
  })
  suite.after(() => {
    if (click) HTMLAnchorElement.prototype.click = click
  })
  return saved
}
