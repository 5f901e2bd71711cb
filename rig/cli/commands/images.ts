/**
 * `rig images build [--offline] [--image NAME...]`: builds the server images for the docker
 * runtime. Uses the Docker engine that answers, or starts the rig's own (and stops it after;
 * the images stay in its data root, the cache for the next run).
 */
import type { Command } from 'commander';
import { buildImages, selectImages } from '../../docker/build-images.js';
import { connectEngine } from '../../docker/engine.js';
import { defaultWorkDir, dockerPaths } from '../../docker/paths.js';
import { runAction } from '../run-action.js';

interface BuildOptions {
  offline?: boolean;
  image?: string[];
  engineStart: boolean;
  workDir: string;
}

async function build(options: BuildOptions): Promise<number> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  selectImages(options.image, options.offline ?? false); // bad names fail before any engine starts
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  const engine = await connectEngine({
    workDir: options.workDir,
    allowStart: options.engineStart,
    log,
    signal: controller.signal,
  });
  try {
    const results = await buildImages({
      docker: engine.docker,
      paths: dockerPaths(options.workDir),
      names: options.image,
      offline: options.offline,
      log,
      signal: controller.signal,
    });
    const built = results.filter((r) => r.status === 'built').length;
    log(`images: ${built} built, ${results.length - built} cached (engine ${engine.socketPath})`);
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    await engine.stop();
  }
}

export function register(program: Command): void {
  const images = program.command('images').description('Server images for the docker runtime.');
  images
    .command('build')
    .description('Build server images (skips those the engine already has).')
    .option('--offline', 'build from a debootstrap Debian base (no registry needed)')
    .option('--image <name...>', 'catalog name(s): mariadb-offline, mariadb-10.11, mariadb-11.4, mysql-8.0, mysql-8.4')
    .option('--no-engine-start', 'fail instead of starting a dockerd when no engine answers')
    .option('--work-dir <dir>', 'the rig work dir (own engine, caches)', defaultWorkDir())
    .action(runAction(build));
}
