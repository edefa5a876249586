package dev.cairn.events.keygroups;

import dev.cairn.events.KeyGroupRange;

/**
 * Flink's key-group arithmetic ({@code KeyGroupRangeAssignment}), shared by the coordinator, which hands out state
 * by key group on a rescale, and by the sidecars and workers that read it. A task's keyed state is split into
 * {@code maxParallelism} key groups; subtask {@code i} of {@code p} owns the contiguous groups
 * {@code [ceil(i * max / p), floor(((i + 1) * max - 1) / p)]}, so every group has exactly one owner at any
 * parallelism from 1 to the max parallelism.
 */
public final class KeyGroupRanges {

    /** The largest max parallelism (Flink: {@code KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM}). */
    public static final int UPPER_BOUND_MAX_PARALLELISM = 1 << 15;
    /** The smallest default max parallelism (Flink: {@code DEFAULT_LOWER_BOUND_MAX_PARALLELISM}). */
    public static final int DEFAULT_LOWER_BOUND_MAX_PARALLELISM = 1 << 7;

    private KeyGroupRanges() {
    }

    /**
     * Flink's default max parallelism for a task of {@code parallelism}: 1.5 x the parallelism rounded up to a power
     * of two, at least 128 and at most 32768.
     */
    public static int defaultMaxParallelism(int parallelism) {
        long wanted = Math.max(1L, parallelism + (long) parallelism / 2);
        long power = Long.highestOneBit(wanted);
        if (power < wanted) {
            power <<= 1;
        }
        return (int) Math.min(Math.max(power, DEFAULT_LOWER_BOUND_MAX_PARALLELISM), UPPER_BOUND_MAX_PARALLELISM);
    }

    /** What is wrong with a max parallelism for a task of {@code parallelism}, or {@code null} when it is valid. */
    public static String problem(int maxParallelism, int parallelism) {
        if (maxParallelism < 1 || maxParallelism > UPPER_BOUND_MAX_PARALLELISM) {
            return "max parallelism must be between 1 and " + UPPER_BOUND_MAX_PARALLELISM + ", not " + maxParallelism;
        }
        if (parallelism > maxParallelism) {
            return "parallelism " + parallelism + " exceeds the max parallelism " + maxParallelism;
        }
        return null;
    }

    /** The key groups of subtask {@code index} of {@code parallelism} (Flink: computeKeyGroupRangeForOperatorIndex). */
    public static KeyGroupRange forSubtask(int maxParallelism, int parallelism, int index) {
        check(maxParallelism, parallelism);
        if (index < 0 || index >= parallelism) {
            throw new IllegalArgumentException("subtask index " + index + " is not within 0 and " + (parallelism - 1));
        }
        int start = (int) (((long) index * maxParallelism + parallelism - 1) / parallelism);
        int end = (int) (((long) (index + 1) * maxParallelism - 1) / parallelism);
        return new KeyGroupRange(start, end);
    }

    /** The subtask of {@code parallelism} that owns {@code keyGroup} (Flink: computeOperatorIndexForKeyGroup). */
    public static int subtaskOf(int maxParallelism, int parallelism, int keyGroup) {
        check(maxParallelism, parallelism);
        if (keyGroup < 0 || keyGroup >= maxParallelism) {
            throw new IllegalArgumentException("key group " + keyGroup + " is not within 0 and "
                    + (maxParallelism - 1));
        }
        return (int) ((long) keyGroup * parallelism / maxParallelism);
    }

    /** Whether two ranges share a key group; an empty range (end before start) shares none. */
    public static boolean overlap(KeyGroupRange a, KeyGroupRange b) {
        return a.getStartKeyGroup() <= a.getEndKeyGroup() && b.getStartKeyGroup() <= b.getEndKeyGroup()
                && a.getStartKeyGroup() <= b.getEndKeyGroup() && b.getStartKeyGroup() <= a.getEndKeyGroup();
    }

    /** Whether {@code range} holds {@code keyGroup}. */
    public static boolean contains(KeyGroupRange range, int keyGroup) {
        return keyGroup >= range.getStartKeyGroup() && keyGroup <= range.getEndKeyGroup();
    }

    /** {@code [start, end]}, as messages name a range. */
    public static String describe(KeyGroupRange range) {
        return "[" + range.getStartKeyGroup() + ", " + range.getEndKeyGroup() + "]";
    }

    private static void check(int maxParallelism, int parallelism) {
        String problem = problem(maxParallelism, parallelism);
        if (problem != null || parallelism < 1) {
            throw new IllegalArgumentException(problem != null ? problem : "parallelism must be >= 1, not "
                    + parallelism);
        }
    }
}
