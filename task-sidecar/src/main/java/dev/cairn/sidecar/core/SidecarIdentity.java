package dev.cairn.sidecar.core;

/**
 * Who a sidecar stands for: one attempt of one subtask of a job ({@link TaskAttempt}), or one coordinator-side
 * participant of a job ({@link Participant}, Flink's master hooks and operator coordinators).
 */
public sealed interface SidecarIdentity permits TaskAttempt, Participant {

    /** The job (the key of every Cairn topic). */
    String jobId();
}
