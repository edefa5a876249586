package dev.cairn.core.audit;

/**
 * One broken journal invariant, found by {@link JournalChecker}.
 *
 * @param partition the journal partition of the record that breaks it
 * @param offset that record's offset
 * @param jobId the job, {@code null} when the record names none (it did not decode)
 * @param rule which invariant, e.g. {@code ENDED_TWICE}
 * @param message what is wrong, naming the checkpoint and the figures
 */
public record Violation(int partition, long offset, String jobId, Rule rule, String message) {

    /** The invariants {@link JournalChecker} checks. */
    public enum Rule {
        /** Every record decodes with one of the journal's schema versions. */
        UNDECODABLE,
        /** Every record is keyed by the job id its event names. */
        KEY,
        /** A job's records all live in one partition. */
        PARTITION,
        /** Checkpoint ids of a job strictly increase, trigger after trigger. */
        ID_ORDER,
        /** A checkpoint ends (completes or aborts) at most once. */
        ENDED_TWICE,
        /** A checkpoint ends only after it was triggered. */
        END_WITHOUT_TRIGGER,
        /** A checkpoint completes only once its tasks were triggered and every required ack was accepted. */
        EARLY_COMPLETION,
        /** No ack is accepted for a checkpoint that has ended. */
        ACK_AFTER_END,
        /** No ack is accepted for a checkpoint that was never triggered, or before its tasks were. */
        ACK_NOT_PENDING,
        /** A subtask's ack is accepted at most once per checkpoint. */
        DUPLICATE_ACK,
        /** Figures an event states agree with the events before it (counts, sizes, failure counter). */
        COUNTERS,
        /** No state is discarded while a pending or retained checkpoint or a kept savepoint refers to it. */
        DISCARDED_WHILE_KEPT
    }

    /** {@code partition/offset}. */
    public String position() {
        return partition + "/" + offset;
    }
}
