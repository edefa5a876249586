package dev.cairn.pipeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks the pipeline's output for exactly-once: in, the expected count of every key (its number of input events)
 * and the results as read in order, key and value ({@link #accept}, fed by {@link ResultsReader}); out, a
 * {@link Report}. Every key must show the counts 1, 2, ..., n in that order, each once: a count that comes again is a
 * duplicate, a gap is a missing result, a last count other than n is a wrong final value, and a key that is not
 * expected or a value that is not a count is reported too. One instance accumulates; it is not thread-safe.
 */
public final class ExactlyOnceCheck {

    /** How many problems a report lists (it counts them all). */
    public static final int LISTED = 20;

    private final Map<String, Long> expected;
    private final Map<String, Long> next = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private long problemCount;
    private long read;

    /** A check of the final counts {@code expected} (key → n). */
    public ExactlyOnceCheck(Map<String, Long> expected) {
        this.expected = new LinkedHashMap<>(Objects.requireNonNull(expected, "expected"));
        this.expected.keySet().forEach(key -> next.put(key, 1L));
    }

    /** One result, in the order of its key's results in the output ({@code null} key or value as read). */
    public void accept(String key, String value) {
        read++;
        if (key == null || !expected.containsKey(key)) {
            problem("unexpected key " + key + " with value " + value);
            return;
        }
        long count;
        try {
            count = Long.parseLong(value == null ? "" : value.strip());
        } catch (NumberFormatException e) {
            problem("key " + key + ": value \"" + value + "\" is not a count");
            return;
        }
        long wanted = next.get(key);
        if (count == wanted) {
            next.put(key, wanted + 1);
        } else if (count < wanted) {
            problem("key " + key + ": duplicate result " + count + " after " + (wanted - 1));
        } else {
            problem("key " + key + ": missing result" + (count - wanted > 1 ? "s " + wanted + ".." + (count - 1)
                    : " " + wanted) + " (saw " + count + " after " + (wanted - 1) + ")");
            next.put(key, count + 1);
        }
    }

    /** Whether every key's last count reached its expected final value (the output may still be incomplete). */
    public boolean reached() {
        return expected.entrySet().stream().allMatch(e -> next.get(e.getKey()) - 1 >= e.getValue());
    }

    /** How many results were read. */
    public long resultsRead() {
        return read;
    }

    /** The verdict on what was read so far, with the final values checked. */
    public Report report() {
        List<String> listed = new ArrayList<>(problems);
        long count = problemCount;
        for (Map.Entry<String, Long> key : expected.entrySet()) {
            long last = next.get(key.getKey()) - 1;
            if (last != key.getValue()) {
                count++;
                if (listed.size() < LISTED) {
                    listed.add("key " + key.getKey() + ": final count " + (last == 0 ? "none" : last) + ", expected "
                            + key.getValue());
                }
            }
        }
        return new Report(expected.size(), read, count, listed);
    }

    private void problem(String message) {
        problemCount++;
        if (problems.size() < LISTED) {
            problems.add(message);
        }
    }

    /**
     * The verdict of a check.
     *
     * @param keysChecked how many keys were expected
     * @param resultsRead how many results were read
     * @param problemCount how many problems were found
     * @param problems the first {@link #LISTED} of them, in the order found
     */
    public record Report(int keysChecked, long resultsRead, long problemCount, List<String> problems) {

        public Report {
            problems = List.copyOf(problems);
        }

        /** Whether the output is exactly-once. */
        public boolean passed() {
            return problemCount == 0;
        }

        @Override
        public String toString() {
            return (passed() ? "exactly-once: " : "NOT exactly-once: ") + keysChecked + " keys, " + resultsRead
                    + " results read, " + problemCount + " problem(s)"
                    + (problems.isEmpty() ? "" : "\n  " + String.join("\n  ", problems));
        }
    }
}
