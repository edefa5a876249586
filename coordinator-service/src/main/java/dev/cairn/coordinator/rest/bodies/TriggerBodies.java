package dev.cairn.coordinator.rest.bodies;

import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.TriggerRequest;
import java.util.function.Supplier;

/**
 * The bodies of the trigger endpoints, as the routes name them: each reads its {@link TriggerBody} with Flink's
 * field names and answers the request it asks for.
 */
public enum TriggerBodies {
    /** {@code POST /jobs/{jobId}/checkpoints}: a checkpoint or a savepoint ({@link CheckpointBody}). */
    CHECKPOINT(CheckpointBody.class),
    /** {@code POST /jobs/{jobId}/savepoints}: a savepoint, Flink's body ({@link SavepointBody}). */
    SAVEPOINT(SavepointBody.class),
    /** {@code POST /jobs/{jobId}/stop}: a stop with a savepoint ({@link StopBody}). */
    STOP(StopBody.class);

    private final Class<? extends TriggerBody> type;

    TriggerBodies(Class<? extends TriggerBody> type) {
        this.type = type;
    }

    /** The class the body is bound to. */
    Class<? extends TriggerBody> type() {
        return type;
    }

    /**
     * The request a body of this endpoint asks for, stamped {@code nowMs}, with the body's request id or else one
     * from {@code ids}.
     *
     * @throws dev.cairn.coordinator.rest.ApiException 400 naming everything that is wrong with the body
     */
    public TriggerRequest read(String text, String jobId, long nowMs, Supplier<String> ids, InputLimits limits) {
        return TriggerBody.read(text, type, jobId, nowMs, ids, limits);
    }
}
