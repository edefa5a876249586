package dev.cairn.sidecar.hook;

import java.util.Objects;

/**
 * Where a task's attempt stands among the attempts of its job, handed to the worker with its restore point
 * ({@link SnapshotHook#restore(java.util.Optional, AttemptNumber)}). A task sidecar registers its attempt
 * ({@code TaskStarted} on {@code cairn.acks}, keyed by the job) before it restores the worker, and the number is the
 * position Kafka gave that registration in the job's partition. Every attempt of the job registered later, of any
 * subtask and on any host, has a greater number, whatever the hosts' clocks say; it is the order in which the
 * coordinator hears of the job's attempts. A worker that announces its incarnations downstream (the worker kit's
 * generations) can order them by it.
 *
 * @param attemptId the attempt's id, as {@code TaskStarted} carries it
 * @param number the registration's offset in the job's partition of {@code cairn.acks}, from 0
 */
public record AttemptNumber(String attemptId, long number) {

    public AttemptNumber {
        Objects.requireNonNull(attemptId, "attemptId");
        if (number < 0) {
            throw new IllegalArgumentException("an attempt number is an offset, >= 0, was " + number);
        }
    }
}
