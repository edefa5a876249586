package dev.cairn.coordinator.app;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Counts the stream threads that died: Kafka Streams replaces each one, so a single failure is survivable,
 * but more than {@value #MAX_FAILURES} within {@value #WINDOW_MS} ms means the instance keeps failing (a
 * poisoned store, a broken disk) and its liveness check should say so. Thread-safe.
 */
public final class StreamThreadFailures {

    static final int MAX_FAILURES = 3;
    static final long WINDOW_MS = 60_000;

    private final Deque<Long> failures = new ArrayDeque<>();

    /** Notes a thread failure at {@code nowMs} (epoch milliseconds). */
    public synchronized void recordFailure(long nowMs) {
        failures.addLast(nowMs);
        forgetBefore(nowMs - WINDOW_MS);
    }

    /** Whether more than {@value #MAX_FAILURES} failures happened in the {@value #WINDOW_MS} ms up to {@code nowMs}. */
    public synchronized boolean isFailingRepeatedly(long nowMs) {
        forgetBefore(nowMs - WINDOW_MS);
        return failures.size() > MAX_FAILURES;
    }

    /** How many failures happened in the window up to {@code nowMs}. */
    public synchronized int recentFailures(long nowMs) {
        forgetBefore(nowMs - WINDOW_MS);
        return failures.size();
    }

    private void forgetBefore(long oldestKeptMs) {
        while (!failures.isEmpty() && failures.peekFirst() <= oldestKeptMs) {
            failures.removeFirst();
        }
    }
}
