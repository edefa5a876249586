package dev.cairn.metrics.logging;

import org.slf4j.MDC;

/**
 * Puts a job's id in the logging context ({@link MDC} key {@value #KEY}) of the current thread while that thread
 * works for the job, so that every line it logs meanwhile names the job (the JSON log format writes it in each line's
 * {@code mdc}). Closing the scope restores what the thread had before, so scopes nest.
 *
 * <pre>{@code
 * try (JobLogContext.Scope job = JobLogContext.of(jobId)) {
 *     ... // lines logged here carry "job": jobId
 * }
 * }</pre>
 */
public final class JobLogContext {

    /** The MDC key of the job's id. */
    public static final String KEY = "job";

    /** The scope of a thread that had no job before: the coordinator's stream thread, for every record it reads. */
    private static final Scope NONE_BEFORE = new Scope(null);

    private JobLogContext() {}

    /** Sets the job of the current thread's log lines ({@code null}: none) until the scope is closed. */
    public static Scope of(String jobId) {
        String previous = MDC.get(KEY);
        put(jobId);
        return previous == null ? NONE_BEFORE : new Scope(previous);
    }

    /** Sets the job of the current thread's log lines for the rest of its life: for a thread that serves one job. */
    public static void forThread(String jobId) {
        put(jobId);
    }

    private static void put(String jobId) {
        if (jobId == null) {
            MDC.remove(KEY);
        } else {
            MDC.put(KEY, jobId);
        }
    }

    /** The time a thread works for a job; closing it gives the thread back the job it had before, if any. */
    public static final class Scope implements AutoCloseable {

        private final String previous;

        private Scope(String previous) {
            this.previous = previous;
        }

        @Override
        public void close() {
            put(previous);
        }
    }
}
