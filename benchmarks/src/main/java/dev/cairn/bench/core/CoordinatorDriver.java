package dev.cairn.bench.core;

/**
 * One coordinator of one job with one vertex of {@link #subtasks()} parallel subtasks, every subtask
 * running, driven in the calling thread. Implemented over Cairn's pure core ({@link CairnCoreDriver}) and
 * over Flink's CheckpointCoordinator ({@link FlinkCoordinatorDriver}), so that a benchmark runs the same
 * sequence of operations against both.
 */
public interface CoordinatorDriver extends AutoCloseable {

    /** Number of subtasks that acknowledge every checkpoint. */
    int subtasks();

    /**
     * Triggers a manual checkpoint; it is pending when this returns.
     *
     * @return the id of the triggered checkpoint
     * @throws IllegalStateException when the coordinator did not trigger (for example one is still pending)
     */
    long trigger();

    /**
     * Acknowledges checkpoint {@code checkpointId} for one subtask, with a state handle whose location is
     * about 100 characters long ({@link StateLocations}).
     *
     * @return true when this acknowledgement completed the checkpoint
     */
    boolean ack(long checkpointId, int subtask);

    /** Triggers one checkpoint and acknowledges it from every subtask; returns its id. */
    default long cycle() {
        long id = trigger();
        for (int subtask = 0; subtask < subtasks(); subtask++) {
            ack(id, subtask);
        }
        return id;
    }

    @Override
    void close();
}
