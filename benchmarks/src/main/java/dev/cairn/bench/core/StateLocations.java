package dev.cairn.bench.core;

import java.util.UUID;

/**
 * The state handle locations both drivers report: about 100 characters, unique per checkpoint and subtask,
 * built the same way on both sides so that building them costs both the same.
 */
public final class StateLocations {

    private static final String PREFIX = "s3://cairn-benchmark-state/checkpoints/job-bench/chk-";

    private StateLocations() {
    }

    /** The 36-character attempt id of a subtask: the same on both sides, fixed for the whole run. */
    public static String attemptId(int subtask) {
        return new UUID(0xCA12L, subtask).toString();
    }

    /** The location of one subtask's state of one checkpoint; {@code attemptId} is 36 characters long. */
    public static String of(long checkpointId, int subtask, String attemptId) {
        return PREFIX + checkpointId + '/' + subtask + '/' + attemptId;
    }
}
