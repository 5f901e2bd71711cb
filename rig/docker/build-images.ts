/**
 * Builds the images a run needs: skips a server image the engine already has (the cache), imports
 * the debootstrap base first for the offline image, and streams the build steps as progress lines.
 * The rig's own image is built from the project's files every time, so it never runs older code
 * than the checkout; the engine's layer cache makes that a few seconds when nothing changed, and
 * what a build of older sources left dangling (labelled powercut-rig.sources) is pruned after it.
 * Builds use the host network (this engine has no bridge) and remove intermediate containers.
 */
import type Dockerode from 'dockerode';
import { dirname, join } from 'node:path';
import { rigFailure } from '../errors.js';
import { baseImage, importDebianBase } from './debian-base.js';
import { followStream } from './follow-stream.js';
import { IMAGE_CATALOG, type ImageSpec, imagesDir, requireImageSpec } from './image-catalog.js';
import type { DockerPaths } from './paths.js';
import { hostCertificates } from './host-certificates.js';
import { projectFiles } from './project-files.js';

export interface BuildRequest {
  docker: Dockerode;
  paths: DockerPaths;
  names?: string[]; // catalog names or tags; default: every offline or every registry image
  offline?: boolean;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

export interface BuiltImage {
  name: string;
  tag: string;
  status: 'built' | 'cached';
  ms: number;
}

export async function imageExists(docker: Dockerode, tag: string): Promise<boolean> {
  return docker.getImage(tag).inspect().then(() => true, () => false);
}

/** The images named (with --offline, only offline ones may be), else every offline or every
 * registry server image (the rig's own image only when named). */
export function selectImages(names: string[] | undefined, offline: boolean): ImageSpec[] {
  if (names && names.length > 0) return names.map((name) => requireImageSpec(name, offline));
  return IMAGE_CATALOG.filter((spec) => spec.offline === offline && spec.context !== 'project');
}

export async function buildImages(request: BuildRequest): Promise<BuiltImage[]> {
  const log = request.log ?? (() => {});
  const specs = selectImages(request.names, request.offline ?? false);
  const results: BuiltImage[] = [];
  for (const [i, spec] of specs.entries()) {
    const started = Date.now();
    const prefix = `[${i + 1}/${specs.length}] ${spec.tag}`;
    if (spec.context !== 'project' && (await imageExists(request.docker, spec.tag))) {
      log(`${prefix}: cached`);
      results.push({ name: spec.name, tag: spec.tag, status: 'cached', ms: Date.now() - started });
      continue;
    }
    if (spec.offline && !(await imageExists(request.docker, baseImage(spec.suite)))) {
      await importDebianBase({ docker: request.docker, paths: request.paths, suite: spec.suite, log, signal: request.signal });
    }
    log(`${prefix}: building from images/${spec.name}`);
    await buildOne(request, spec, (line) => log(`  ${line}`));
    if (spec.context === 'project') await pruneOlderSources(request.docker);
    log(`${prefix}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    results.push({ name: spec.name, tag: spec.tag, status: 'built', ms: Date.now() - started });
  }
  return results;
}

/** Images of older sources of the rig's own image, dangling since a newer build took the tag. */
async function pruneOlderSources(docker: Dockerode): Promise<void> {
  await docker.pruneImages({ filters: { dangling: ['true'], label: ['powercut-rig.sources=rig'] } });
}

/** The build context and options of one image: its own folder, or the project's top level. */
async function buildInput(spec: ImageSpec): Promise<{ context: string; src: string[]; dockerfile: string; buildargs: Record<string, string> }> {
  if (spec.context !== 'project') return { context: join(imagesDir(), spec.name), src: ['Dockerfile'], dockerfile: 'Dockerfile', buildargs: {} };
  const root = dirname(imagesDir());
  const buildargs: Record<string, string> = spec.offline ? { BASE: baseImage(spec.suite) } : {};
  const certificates = await hostCertificates();
  if (certificates) buildargs.HOST_CA = certificates;
  return { context: root, src: await projectFiles(root), dockerfile: `images/${spec.name}/Dockerfile`, buildargs };
}

async function buildOne(request: BuildRequest, spec: ImageSpec, log: (line: string) => void): Promise<void> {
  const { context, src, dockerfile, buildargs } = await buildInput(spec);
  const tail: string[] = []; // the failing step's last output lines, for the error
  try {
    const stream = await request.docker.buildImage(
      { context, src },
      { t: spec.tag, dockerfile, buildargs, networkmode: 'host', rm: true, forcerm: true, abortSignal: request.signal },
    );
    await followStream(request.docker, stream, (line) => {
      if (/^Step \d+\/\d+ :/.test(line)) {
        log(line);
        tail.length = 0;
      } else if (!line.startsWith('Removing intermediate container') && tail.push(line.replace(/\x1b\[[0-9;]*m/g, '')) > 12) {
        tail.shift();
      }
    });
  } catch (error) {
    const hint = spec.offline ? '' : ' (no registry here? build the offline image: rig images build --offline)';
    const output = tail.length ? `; its last lines: ${tail.join(' | ')}` : '';
    throw rigFailure(`building ${spec.tag} failed: ${(error as Error).message}${output}${hint}`, error);
  }
}
