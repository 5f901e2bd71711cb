/** One extent map per (mount, datadir), built on first use; forget() after the files change. */
import { buildExtentMap, type ExtentMap } from './extent-map.js';

export class ExtentMapCache {
  readonly #maps = new Map<string, Promise<ExtentMap>>();

  get(mountPoint: string, datadirRel = '.'): Promise<ExtentMap> {
    const key = `${mountPoint}\0${datadirRel}`;
    let map = this.#maps.get(key);
    if (!map) {
      map = buildExtentMap(mountPoint, datadirRel);
      map.catch(() => this.#maps.delete(key));
      this.#maps.set(key, map);
    }
    return map;
  }

  forget(mountPoint: string): void {
    for (const key of this.#maps.keys()) if (key.startsWith(`${mountPoint}\0`)) this.#maps.delete(key);
  }
}
