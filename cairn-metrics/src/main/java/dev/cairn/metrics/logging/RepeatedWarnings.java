package dev.cairn.metrics.logging;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Rate-limits a warning that can repeat without bound (a dead letter per bad record): per key (its reason), the first
 * {@code firstPerKey} occurrences of a window are logged, the others are only counted, and once the window has ended
 * the next occurrence of any key first hands over a summary of each ended window that suppressed something (key,
 * count, window), then starts a new window. So a flood of one reason logs at most {@code firstPerKey} lines and one
 * summary per window, whatever its size. The keys are bounded: past {@code maxKeys} at once, new keys share the key
 * {@value #OTHER}. Time comes from the given clock (milliseconds), so tests need not sleep. Thread-safe.
 */
public final class RepeatedWarnings {

    /** The key of the occurrences whose own key found no room. */
    public static final String OTHER = "other";

    private final int firstPerKey;
    private final Duration window;
    private final int maxKeys;
    private final LongSupplier clockMs;
    private final Map<String, Window> windows = new LinkedHashMap<>();

    /**
     * @param firstPerKey occurrences logged per key and window (at least 1)
     * @param window how long a window lasts (positive)
     * @param maxKeys keys counted at once (at least 1)
     * @param clockMs the time now, in milliseconds
     */
    public RepeatedWarnings(int firstPerKey, Duration window, int maxKeys, LongSupplier clockMs) {
        if (firstPerKey < 1 || maxKeys < 1 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a rate limit needs firstPerKey >= 1, maxKeys >= 1 and a positive "
                    + "window; got " + firstPerKey + ", " + maxKeys + " and " + window);
        }
        this.firstPerKey = firstPerKey;
        this.window = window;
        this.maxKeys = maxKeys;
        this.clockMs = clockMs;
    }

    /** What to log when windows end with occurrences suppressed. */
    @FunctionalInterface
    public interface Summary {

        /** {@code suppressed} occurrences of {@code key} were not logged in the window of {@code window}. */
        void suppressed(String key, long suppressed, Duration window);
    }

    /**
     * Counts an occurrence of {@code key} and says whether to log it; first hands {@code summary} the ended windows
     * that suppressed occurrences.
     */
    public boolean admit(String key, Summary summary) {
        Map<String, Long> ended;
        boolean log;
        synchronized (this) {
            long now = clockMs.getAsLong();
            ended = endWindows(now);
            String counted = windows.containsKey(key) || windows.size() < maxKeys ? key : OTHER;
            Window current = windows.computeIfAbsent(counted, k -> new Window(now));
            log = current.logged < firstPerKey;
            if (log) {
                current.logged++;
            } else {
                current.suppressed++;
            }
        }
        ended.forEach((ofKey, count) -> summary.suppressed(ofKey, count, window));
        return log;
    }

    /**
     * Hands {@code summary} the windows that ended with occurrences suppressed, without counting an occurrence: for a
     * periodic caller, so that the summary of a flood that stopped is logged too.
     */
    public void flush(Summary summary) {
        Map<String, Long> ended;
        synchronized (this) {
            ended = windows.isEmpty() ? Map.of() : endWindows(clockMs.getAsLong());
        }
        ended.forEach((ofKey, count) -> summary.suppressed(ofKey, count, window));
    }

    /** Removes the windows ended by {@code now}; the suppressed count of each that suppressed something. */
    private Map<String, Long> endWindows(long now) {
        Map<String, Long> ended = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, Window>> it = windows.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, Window> entry = it.next();
            if (now - entry.getValue().startMs >= window.toMillis()) {
                if (entry.getValue().suppressed > 0) {
                    ended.put(entry.getKey(), entry.getValue().suppressed);
                }
                it.remove();
            }
        }
        return ended;
    }

    private static final class Window {

        private final long startMs;
        private int logged;
        private long suppressed;

        Window(long startMs) {
            this.startMs = startMs;
        }
    }
}
