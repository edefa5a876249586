package dev.cairn.kit.operator;

import dev.cairn.kit.align.Alignment;
import dev.cairn.sidecar.hook.RestorePoint;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Where an operator subtask's results go: a kit topic read by the next task ({@link KitTopicOutput}), or an
 * exactly-once sink ({@link SinkOutput}). The task's loop thread makes every call.
 */
public interface TaskOutput extends AutoCloseable {

    /**
     * Starts an incarnation of the subtask: at the first start, after a restore, and after every rollback.
     *
     * @param restoredFrom the checkpoint the subtask's state comes from, -1 for the initial state
     * @param snapshotDirectory the directory-like location of that checkpoint's snapshot files (empty for the initial
     *     state)
     * @param generation the incarnation's generation, announced downstream
     * @param chosen whether a user chose the restored checkpoint on purpose ({@code RestorePoint.chosen()}; false
     *     for a rollback and a fresh start): a sink whose output is ahead of a checkpoint nobody chose refuses it
     * @throws IOException when the output's part of the snapshot cannot be read
     * @throws RuntimeException when what the start writes downstream (resume records) does not reach it
     */
    void start(long restoredFrom, Optional<String> snapshotDirectory, long generation, boolean chosen)
            throws IOException;

    /**
     * Starts the incarnation restored from a rescaled restore point ({@link RestorePoint#rescaled()}): the subtask's
     * parallelism changed since {@code point} was taken, and its state comes from the states the point hands it. By
     * default as {@link #start} from the point's checkpoint, without a snapshot directory of its own.
     *
     * @throws IOException when the output's parts of the handed states cannot be read
     */
    default void startRescaled(RestorePoint point, long generation) throws IOException {
        start(point.checkpointId(), Optional.empty(), generation, point.chosen());
    }

    /** Writes one result. */
    void emit(byte[] key, byte[] value);

    /**
     * Barrier {@code checkpointId} arrived on every input: what follows goes after it. Answers the output's part of
     * the snapshot, to be written once the checkpoint's storage location is known, and only once every result
     * written before is safe (confirmed by Kafka, or held in that part): the task acknowledges the checkpoint with it.
     *
     * @throws RuntimeException when a result written before was lost: the task declines the checkpoint and stops
     */
    Sealed barrier(long checkpointId, Alignment alignment);

    /** Checkpoint {@code checkpointId} completed: what it covers becomes visible (a sink commits). */
    void complete(long checkpointId);

    /** Why the output stopped working, when it did. */
    Optional<Throwable> failure();

    /** The names of the parts it writes next to the task's state file ({@link Sealed#writeTo}); none by default. */
    default List<String> partNames() {
        return List.of();
    }

    /**
     * The names of the parts subtask {@code subtask} of the task writes next to its state file: after a rescale, a
     * subtask may be told to delete another index's snapshot. By default {@link #partNames()}.
     */
    default List<String> partNames(int subtask) {
        return partNames();
    }

    @Override
    void close();

    /** The output's part of one snapshot. */
    @FunctionalInterface
    interface Sealed {

        /** Nothing to write (an output that keeps no state). */
        Sealed NOTHING = directory -> 0;

        /**
         * Writes the part into the directory-like location {@code directory}, next to the task's state file; answers
         * the bytes written.
         */
        long writeTo(String directory) throws IOException;
    }
}
