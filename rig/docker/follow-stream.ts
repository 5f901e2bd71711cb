/**
 * Waits for a Docker progress stream (build, import, pull) to end. The engine reports a failed
 * step inside the stream (`{"error": ...}`), not as an HTTP error: that becomes a rejection here,
 * so a failed build is never taken for a finished one.
 */
import type Dockerode from 'dockerode';

interface StreamEvent {
  stream?: string;
  status?: string;
  error?: string;
  errorDetail?: { message?: string };
}

export function followStream(
  docker: Dockerode,
  stream: NodeJS.ReadableStream,
  onLine: (line: string) => void = () => {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: string | null = null;
    const onProgress = (event: StreamEvent) => {
      if (event.error) failure = event.errorDetail?.message ?? event.error;
      const text = (event.stream ?? event.status ?? '').trim();
      if (text) for (const line of text.split('\n')) onLine(line);
    };
    const onFinished = (err: Error | null) => {
      if (err) reject(err);
      else if (failure) reject(new Error(failure));
      else resolve();
    };
    docker.modem.followProgress(stream, onFinished, onProgress);
  });
}
