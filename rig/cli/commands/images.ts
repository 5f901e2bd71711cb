/**
 * `rig images build [--offline] [--image NAME...]`: builds the server images for the docker
 * runtime; `rig images list`: which of them the engine has. Both use the Docker engine that
 * answers, or start the rig's own (and stop it after; the images stay in its data root, the
 * cache for the next run).
 */
import type { Command } from 'commander';
import { buildImages, selectImages } from '../../docker/build-images.js';
import { connectEngine, type DockerEngine } from '../../docker/engine.js';
import { imageNames } from '../../docker/image-catalog.js';
import { formatImageList, listImages } from '../../docker/list-images.js';
import { dockerPaths } from '../../docker/paths.js';
import { contextFromEnv } from '../../context.js';
import { runInterruptible } from '../../interrupts.js';
import { runAction } from '../run-action.js';
import { commandGroup } from '../command-group.js';

interface EngineFlags {
  engineStart: boolean;
  workDir: string;
}

interface BuildOptions extends EngineFlags {
  offline?: boolean;
  image?: string[];
}

const log = (line: string) => process.stdout.write(`${line}\n`);

/** Runs `work` against an engine, with Ctrl-C (or SIGTERM) aborting it, and stops an engine it started. */
async function withEngine(flags: EngineFlags, work: (engine: DockerEngine, signal: AbortSignal) => Promise<number>): Promise<number> {
  const { dockerHost } = contextFromEnv();
  return runInterruptible(async (signal) => {
    const engine = await connectEngine({ workDir: flags.workDir, dockerHost, allowStart: flags.engineStart, log, signal });
    try {
      return await work(engine, signal);
    } finally {
      await engine.stop();
    }
  });
}

async function build(options: BuildOptions): Promise<number> {
  selectImages(options.image, options.offline ?? false); // bad names fail before any engine starts
  return withEngine(options, async (engine, signal) => {
    const results = await buildImages({
      docker: engine.docker,
      paths: dockerPaths(options.workDir),
      names: options.image,
      offline: options.offline,
      log,
      signal,
    });
    const built = results.filter((r) => r.status === 'built').length;
    log(`images: ${built} built, ${results.length - built} cached (engine ${engine.socketPath})`);
    return 0;
  });
}

async function list(options: EngineFlags): Promise<number> {
  return withEngine(options, async (engine) => {
    for (const line of formatImageList(await listImages(engine.docker))) log(line);
    return 0;
  });
}

function engineOptions(command: Command): Command {
  return command
    .option('--no-engine-start', 'fail instead of starting a dockerd when no engine answers')
    .option('--work-dir <dir>', 'the rig work dir (own engine, caches; POWERCUT_RIG_WORK_DIR)', contextFromEnv().workDir);
}

export function register(program: Command): void {
  const images = commandGroup(program, 'images', 'server images for the docker runtime: build, list');
  engineOptions(
    images
      .command('build')
      .description('build server images (skips a server image the engine already has; `rig` is built again); --offline with no --image builds every offline one')
      .option('--offline', 'build from a debootstrap Debian base (no registry needed)')
      .option('--image <name...>', `catalog name(s): ${imageNames(false).join(', ')} (offline: ${imageNames(true).join(', ')})`),
  ).action(runAction(build));
  engineOptions(images.command('list').description('every catalog image and whether the engine has it')).action(runAction(list));
}
