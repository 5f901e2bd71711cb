/**
 * The server runtime a scenario names. `docker` connects to the engine that answers (or starts the
 * rig's own dockerd, as `rig images build` does); `close()` stops only an engine it started.
 */
import type { ScenarioSettings } from '../results/types.js';
import { badInput } from '../errors.js';
import { connectEngine } from '../docker/engine.js';
import { defaultWorkDir } from '../docker/paths.js';
import { DockerRuntime } from './docker.js';
import { createLocalRuntime } from './local.js';
import type { ServerRuntime } from './types.js';

export async function createRuntime(settings: ScenarioSettings, signal?: AbortSignal): Promise<ServerRuntime> {
  if (settings.runtime === 'local') return createLocalRuntime();
  if (!settings.image) throw badInput(`the docker runtime needs an image (--image, or image: in the scenario); e.g. powercut-rig/mariadb-offline:10.11`);
  const engine = await connectEngine({
    workDir: defaultWorkDir(),
    allowStart: true,
    signal,
    log: (line) => process.stderr.write(`rig: ${line}\n`),
  });
  const runtime: ServerRuntime = new DockerRuntime({ docker: engine.docker, image: settings.image });
  return Object.assign(runtime, { close: () => engine.stop() });
}
