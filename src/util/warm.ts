/**
 * Whether this process builds again and again (`catalogue dev`). Modules then keep between builds
 * what the next one reuses (image headers and cache records); a single build would only hold it
 * in memory, so it is off by default.
 */
let warm = false;

export const keepWarm = (): boolean => warm;

export function setKeepWarm(on: boolean): void {
  warm = on;
}
