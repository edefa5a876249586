package dev.cairn.coordinator.domain;

import java.util.Comparator;

/** Composite keys of the per-subtask stores, ordered like the store's byte keys would be. */
final class StateKeys {

    private StateKeys() {
    }

    /** (jobId, taskId). */
    record VertexKey(String jobId, String taskId) implements Comparable<VertexKey> {
        private static final Comparator<VertexKey> ORDER = Comparator.comparing(VertexKey::jobId)
                .thenComparing(VertexKey::taskId);

        @Override
        public int compareTo(VertexKey other) {
            return ORDER.compare(this, other);
        }
    }

    /** (jobId, taskId, subtaskIndex). */
    record AttemptKey(String jobId, String taskId, int subtaskIndex) implements Comparable<AttemptKey> {
        private static final Comparator<AttemptKey> ORDER = Comparator.comparing(AttemptKey::jobId)
                .thenComparing(AttemptKey::taskId)
                .thenComparingInt(AttemptKey::subtaskIndex);

        @Override
        public int compareTo(AttemptKey other) {
            return ORDER.compare(this, other);
        }
    }

    /** (jobId, checkpointId, taskId, subtaskIndex). */
    record AckKey(String jobId, long checkpointId, String taskId, int subtaskIndex) implements Comparable<AckKey> {
        private static final Comparator<AckKey> ORDER = Comparator.comparing(AckKey::jobId)
                .thenComparingLong(AckKey::checkpointId)
                .thenComparing(AckKey::taskId)
                .thenComparingInt(AckKey::subtaskIndex);

        /** The first key of the (jobId, checkpointId) prefix. */
        static AckKey first(String jobId, long checkpointId) {
            return new AckKey(jobId, checkpointId, "", Integer.MIN_VALUE);
        }

        @Override
        public int compareTo(AckKey other) {
            return ORDER.compare(this, other);
        }
    }
}
