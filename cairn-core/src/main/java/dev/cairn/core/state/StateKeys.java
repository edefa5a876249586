package dev.cairn.core.state;

import java.util.Comparator;

/**
 * Keys of the {@link StateTable}s: hashed, built from a job id the caller already holds (no copies). A
 * store-backed state encodes them to its stores' keys.
 */
public final class StateKeys {

    private StateKeys() {
    }

    /** (jobId, taskId). */
    public record VertexKey(String jobId, String taskId) {
    }

    /** (jobId, taskId, subtaskIndex). */
    public record AttemptKey(String jobId, String taskId, int subtaskIndex) {
    }

    /** (jobId, checkpointId): one checkpoint's acks, progress or summary. */
    public record CheckpointKey(String jobId, long checkpointId) {
    }

    /** (jobId, requestId): one trigger request's record. */
    public record RequestKey(String jobId, String requestId) {
    }

    /** (taskId, subtaskIndex) within one checkpoint, ordered by task id, then subtask index. */
    record SubtaskKey(String taskId, int subtaskIndex) implements Comparable<SubtaskKey> {
        private static final Comparator<SubtaskKey> ORDER = Comparator.comparing(SubtaskKey::taskId)
                .thenComparingInt(SubtaskKey::subtaskIndex);

        @Override
        public int compareTo(SubtaskKey other) {
            return ORDER.compare(this, other);
        }
    }
}
