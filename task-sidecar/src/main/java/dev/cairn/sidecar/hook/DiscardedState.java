package dev.cairn.sidecar.hook;

import dev.cairn.events.AckDiscardStatus;

/**
 * A state handle the coordinator discarded with this subtask's acknowledgement (an ack for a checkpoint that
 * was never triggered, had already ended, or that came from an attempt not in its plan): no checkpoint refers
 * to it, so the worker may delete it. Handed to {@link SnapshotHook#discardState} at most once per checkpoint
 * and location.
 *
 * @param checkpointId the checkpoint the acknowledgement was for
 * @param location the state handle's location
 * @param sizeBytes its size
 * @param status why it was discarded: UNKNOWN, DISCARDED or LATE
 * @param message the coordinator's explanation
 */
public record DiscardedState(long checkpointId, String location, long sizeBytes, AckDiscardStatus status,
        String message) {}
