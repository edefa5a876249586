package dev.cairn.bench.core;

/**
 * One coordinator of one job with one vertex of {@link #subtasks()} parallel subtasks, every subtask
 * running, driven in the calling thread. Implemented over Cairn's pure core ({@link CairnCoreDriver}) and
 * over Flink's CheckpointCoordinator ({@link FlinkCoordinatorDriver}, with or without a state handle per ack),
 * so that a benchmark runs the same sequence of operations against each.
 *
 * <p>A trigger and an ack each come in two steps: building the message the coordinator receives (in
 * production a decoded record or an RPC payload, built before the coordinator sees it) and delivering it.
 * A benchmark builds the messages outside the measured call and delivers them inside it; {@link #messagesBuilt()}
 * lets it check that the measured call built none.
 */
public interface CoordinatorDriver extends AutoCloseable {

    /** Number of subtasks that acknowledge every checkpoint. */
    int subtasks();

    /**
     * The message that asks for a manual checkpoint, or a marker that builds nothing when the coordinator's
     * trigger is a method call without a message.
     */
    Object triggerMessage();

    /**
     * Delivers a message of {@link #triggerMessage()}; the checkpoint is pending when this returns.
     *
     * @return the id of the triggered checkpoint
     * @throws IllegalStateException when the coordinator did not trigger (for example one is still pending)
     */
    long deliverTrigger(Object message);

    /**
     * The acknowledgement of checkpoint {@code checkpointId} by one subtask, as the coordinator receives it,
     * with a state handle whose location is about 100 characters long ({@link StateLocations}) unless the
     * implementation measures acks without state.
     */
    Object ackMessage(long checkpointId, int subtask);

    /**
     * Delivers a message of {@link #ackMessage}.
     *
     * @return true when this acknowledgement completed the checkpoint
     */
    boolean deliverAck(Object message);

    /** How many trigger and ack messages this driver has built so far; a marker that builds nothing is not one. */
    long messagesBuilt();

    /** Builds and delivers a trigger; returns the id of the triggered checkpoint. */
    default long trigger() {
        return deliverTrigger(triggerMessage());
    }

    /** Builds and delivers an ack; returns true when it completed the checkpoint. */
    default boolean ack(long checkpointId, int subtask) {
        return deliverAck(ackMessage(checkpointId, subtask));
    }

    /** Triggers one checkpoint and acknowledges it from every subtask, building every message; returns its id. */
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
