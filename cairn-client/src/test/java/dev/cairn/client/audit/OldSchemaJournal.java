package dev.cairn.client.audit;

import static dev.cairn.core.audit.AuditJournals.ack;
import static dev.cairn.core.audit.AuditJournals.attempt;

import dev.cairn.core.audit.AuditJournals;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.PlannedVertex;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.serde.FrozenSchemaWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * A journal written over the coordinator's upgrades, one record at a time with the frozen writer schema of its
 * era, as the schemas module's compatibility tests write old data: job {@code legacy} (source of parallelism 2,
 * sink of 1) completes checkpoint 1 under JournalEnvelope v1 (a trigger with a per-subtask plan, a completion
 * listing every subtask state), aborts checkpoint 2 on a decline under v2, completes checkpoint 3 under v3 (acks
 * expected and a subtask count instead of lists) and checkpoint 4 under the current schema. Triggers and completions
 * carry the default snapshot options, which the versions before options existed drop.
 */
final class OldSchemaJournal {

    static final String JOB = "legacy";

    private OldSchemaJournal() {
    }

    /** The records' values (Avro single-object encoding), in journal order; every key is {@link #JOB}. */
    static List<byte[]> values() {
        List<byte[]> values = new ArrayList<>();
        JobSpec spec = AuditJournals.spec(JOB, AuditJournals.vertex("source", 2), AuditJournals.vertex("sink", 1));
        values.add(encode(spec, 1));
        values.add(encode(started("source", 0), 1));
        values.add(encode(started("source", 1), 1));
        values.add(encode(started("sink", 0), 1));
        checkpoint(values, 1, 1, 10_000, true);
        values.add(encode(triggered(2, 20_000, 2), 2));
        values.add(encode(ack(JOB, 2, "source", 0, 20_010, 10, attempt("source", 0)), 2));
        values.add(encode(CheckpointDeclined.newBuilder().setJobId(JOB).setCheckpointId(2).setTaskId("source")
                .setSubtaskIndex(1).setAttemptId(attempt("source", 1)).setMessage("disk full")
                .setReason(CheckpointFailureReason.CHECKPOINT_DECLINED).setTimestampMs(20_020).build(), 2));
        values.add(encode(CheckpointAborted.newBuilder().setJobId(JOB).setCheckpointId(2)
                .setType(CheckpointType.CHECKPOINT).setReason(CheckpointFailureReason.CHECKPOINT_DECLINED)
                .setMessage("Decline checkpoint 2 by task source of job legacy: disk full").setLatestCompletedId(1)
                .setTimestampMs(20_020).build(), 2));
        checkpoint(values, 3, 3, 30_000, false);
        checkpoint(values, 4, 0, 40_000, false);
        return values;
    }

    /** A completed checkpoint with acks of 10, 20 and 30 bytes; version 0 is the current schema. */
    private static void checkpoint(List<byte[]> values, long id, int version, long at, boolean lists) {
        values.add(encode(triggered(id, at, version), version));
        List<CheckpointAcknowledged> acks = List.of(ack(JOB, id, "sink", 0, at + 3, 30, attempt("sink", 0)),
                ack(JOB, id, "source", 0, at + 1, 10, attempt("source", 0)),
                ack(JOB, id, "source", 1, at + 2, 20, attempt("source", 1)));
        acks.forEach(ack -> values.add(encode(ack, version)));
        CheckpointCompleted.Builder completed = CheckpointCompleted.newBuilder().setJobId(JOB).setCheckpointId(id)
                .setType(CheckpointType.CHECKPOINT).setTriggerTimestampMs(at).setCompletionTimestampMs(at + 5)
                .setStorageLocation("file:///checkpoints/" + JOB + "/chk-" + id).setTotalSizeBytes(60)
                .setLastSubsumedId(id == 1 ? -1 : id - 1).setOptions(SnapshotOptions.newBuilder().build());
        if (lists) {
            completed.setSubtaskStates(acks.stream().map(a -> new SubtaskState(a.getTaskId(), a.getSubtaskIndex(),
                    a.getAttemptId(), a.getStateHandle(), -1)).toList()).setSubtaskCount(-1);
        } else {
            completed.setSubtaskStates(List.of()).setSubtaskCount(3);
        }
        values.add(encode(completed.build(), version));
    }

    private static CheckpointTriggered triggered(long id, long at, int version) {
        CheckpointTriggered.Builder trigger = CheckpointTriggered.newBuilder().setJobId(JOB).setCheckpointId(id)
                .setTimestampMs(at).setType(CheckpointType.CHECKPOINT).setPeriodic(true).setForce(false)
                .setStorageLocation("file:///checkpoints/" + JOB + "/chk-" + id).setTimeoutAtMs(at + 50_000)
                .setOptions(SnapshotOptions.newBuilder().build());
        if (version == 1 || version == 2) {
            trigger.setAcksExpected(-1).setPlan(List.of(
                    new PlannedVertex("source", List.of(attempt("source", 0), attempt("source", 1)), true, true, true),
                    new PlannedVertex("sink", List.of(attempt("sink", 0)), true, true, true)));
        } else {
            trigger.setAcksExpected(3).setPlan(List.of());
        }
        return trigger.build();
    }

    private static TaskStarted started(String taskId, int subtask) {
        return TaskStarted.newBuilder().setJobId(JOB).setTaskId(taskId).setSubtaskIndex(subtask)
                .setAttemptId(attempt(taskId, subtask)).setTimestampMs(1_001).build();
    }

    /** The event in a JournalEnvelope written with frozen version {@code version} (0: the current schema). */
    static byte[] encode(SpecificRecord event, int version) {
        JournalEnvelope envelope = new JournalEnvelope(event);
        return version == 0 ? FrozenSchemaWriter.encode(envelope, JournalEnvelope.getClassSchema())
                : FrozenSchemaWriter.encode(envelope, version);
    }
}
