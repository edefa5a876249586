package dev.cairn.coordinator.rest.access;

import java.util.ArrayList;
import java.util.List;

/**
 * The jobs a token may act on: job ids, or prefixes ending in {@code *} ({@code *} alone: every job).
 *
 * @param patterns the job ids and prefixes, as written
 */
public record JobScope(List<String> patterns) {

    /** Every job. */
    public static final JobScope ALL = new JobScope(List.of("*"));

    public JobScope {
        patterns = List.copyOf(patterns);
        if (patterns.isEmpty()) {
            throw new IllegalArgumentException("a job scope names at least one job id or prefix*");
        }
    }

    /**
     * Reads {@code ci-*, nightly} (comma-separated, blanks around entries ignored).
     *
     * @throws IllegalArgumentException for an empty entry or a {@code *} anywhere but at the end
     */
    public static JobScope parse(String text) {
        List<String> patterns = new ArrayList<>();
        for (String entry : text.split(",", -1)) {
            String pattern = entry.strip();
            if (pattern.isEmpty()) {
                throw new IllegalArgumentException("an empty job id in '" + text + "'");
            }
            if (pattern.indexOf('*') >= 0 && pattern.indexOf('*') != pattern.length() - 1) {
                throw new IllegalArgumentException("'" + pattern + "': '*' may only end a job id prefix");
            }
            patterns.add(pattern);
        }
        return new JobScope(patterns);
    }

    /** Whether {@code jobId} is one of the ids or starts with one of the prefixes. */
    public boolean covers(String jobId) {
        for (String pattern : patterns) {
            boolean prefix = pattern.endsWith("*");
            if (prefix ? jobId.startsWith(pattern.substring(0, pattern.length() - 1)) : jobId.equals(pattern)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return String.join(",", patterns);
    }
}
