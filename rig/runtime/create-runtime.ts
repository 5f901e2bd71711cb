/**
 * The server runtime a scenario names. `docker` connects to the engine that answers (or starts the
 * rig's own dockerd, as `rig images build` does) and runs the scenario's image, or with none named
 * the newest image built for the host server's flavour; `close()` stops only an engine it started.
 */
import type { ScenarioSettings } from '../results/types.js';
import type { RigContext } from '../context.js';
import { connectEngine } from '../docker/engine.js';
import { chooseDefaultImage } from './default-image.js';
import { DockerRuntime } from './docker.js';
import { findServerBinary } from './find-server-binary.js';
import { createLocalRuntime } from './local.js';
import type { ServerRuntime } from './types.js';

const say = (line: string) => process.stderr.write(`rig: ${line}\n`);

export async function createRuntime(settings: ScenarioSettings, context: RigContext, signal?: AbortSignal): Promise<ServerRuntime> {
  if (settings.runtime === 'local') return createLocalRuntime();
  const engine = await connectEngine({ workDir: context.workDir, dockerHost: context.dockerHost, allowStart: true, signal, log: say });
  try {
    let image = settings.image;
    if (!image) {
      const host = await findServerBinary().catch(() => null);
      const chosen = await chooseDefaultImage(engine.docker, host?.flavor ?? null);
      say(`no --image given: using ${chosen.tag} (built ${chosen.created.slice(0, 19).replace('T', ' ')}), the newest built for the host's server`);
      image = chosen.tag;
    }
    const runtime: ServerRuntime = new DockerRuntime({ docker: engine.docker, image });
    return Object.assign(runtime, { close: () => engine.stop() });
  } catch (error) {
    await engine.stop();
    throw error;
  }
}
