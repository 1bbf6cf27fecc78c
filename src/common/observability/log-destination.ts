import pino from 'pino';

/** Bytes of log lines gathered before one write to standard output. */
export const STDOUT_LOG_BUFFER_BYTES = 4096;
/** The longest a line waits in the buffer when fewer bytes than that come. */
export const STDOUT_LOG_FLUSH_MS = 100;

let stdout: pino.DestinationStream | undefined;

/**
 * Standard output for the log, shared by every application in the process (tests start several),
 * written in batches: lines gather up to {@link STDOUT_LOG_BUFFER_BYTES} and go out in one write,
 * and at the latest {@link STDOUT_LOG_FLUSH_MS} after they came. pino's default destination writes
 * each line on its own as it comes: at `info` that is one write (and one hand-off to libuv's thread
 * pool) per request, as much CPU as the access line's formatting (docs/BENCHMARKS.md,
 * "meter-cpu"). Every line is still written, in order; pino flushes what is left synchronously when the
 * process exits (process.exit, an uncaught exception, the end of the event loop). What a SIGKILL
 * (or an out-of-memory kill) cuts off is at most the last {@link STDOUT_LOG_FLUSH_MS} of lines.
 */
export function stdoutLogDestination(): pino.DestinationStream {
  stdout ??= pino.destination({
    dest: 1,
    sync: false,
    minLength: STDOUT_LOG_BUFFER_BYTES,
    periodicFlush: STDOUT_LOG_FLUSH_MS,
  });
  return stdout;
}
