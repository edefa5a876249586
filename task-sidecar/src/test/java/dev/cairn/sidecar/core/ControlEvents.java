package dev.cairn.sidecar.core;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.DiscardReason;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.PlannedVertex;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.SharedState;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskRoles;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.FrozenSchemaWriter;
import java.util.ArrayList;
import java.util.List;

/** Control events for one job, as the coordinator would write them, for tests of the sidecar's rules. */
final class ControlEvents {

    static final String JOB = "orders";
    static final String TASK = "sink";
    static final String ATTEMPT = "attempt-new";
    static final TaskAttempt ME = new TaskAttempt(JOB, TASK, 1, ATTEMPT);
    static final String PARTICIPANT = "offsets";
    static final Participant COORDINATOR_SIDE = new Participant(JOB, PARTICIPANT);

    static {
        // builders fill unset fields with Avro defaults, which instantiates generated classes; Avro trusts them
        // once a serde exists
        CairnSerdes.control();
    }

    private ControlEvents() {
    }

    /** Makes Avro trust Cairn's generated classes (for tests that build events without this class). */
    static void trustCairnClasses() {
        // the static initializer did it
    }

    /** A vertex of a plan; {@code attempts} by subtask index. */
    static PlannedVertex vertex(String taskId, boolean triggered, boolean acknowledges, boolean notified,
            String... attempts) {
        return PlannedVertex.newBuilder().setTaskId(taskId).setAttemptIds(List.of(attempts))
                .setTriggered(triggered).setAcknowledges(acknowledges).setNotified(notified).build();
    }

    /** The roles of a task that differ from the default, as a trigger lists them. */
    static TaskRoles roles(String taskId, boolean triggered, boolean acknowledges, boolean notified) {
        return new TaskRoles(taskId, triggered, acknowledges, notified);
    }

    /** A checkpoint of {@link #JOB} in which every task has the default roles. */
    static CheckpointTriggered trigger(long id, long timestampMs) {
        return trigger(id, timestampMs, List.of());
    }

    /** A checkpoint of {@link #JOB} listing {@code roles} for the tasks whose roles are not the default. */
    static CheckpointTriggered trigger(long id, long timestampMs, List<TaskRoles> roles) {
        return CheckpointTriggered.newBuilder().setJobId(JOB).setCheckpointId(id).setTimestampMs(timestampMs)
                .setType(CheckpointType.CHECKPOINT).setPeriodic(true).setForce(false)
                .setStorageLocation("file:///cp/" + JOB + "/chk-" + id).setPlan(List.of()).setAcksExpected(3)
                .setRoles(roles).setTimeoutAtMs(timestampMs + 10_000).setOptions(SnapshotOptions.newBuilder().build())
                .build();
    }

    /**
     * A version 1 checkpoint of {@link #JOB}, whose plan has a source and the given sink vertex, written with the
     * first frozen ControlEnvelope and decoded as a sidecar decodes it.
     */
    static CheckpointTriggered triggerV1(long id, long timestampMs, PlannedVertex sink) {
        List<PlannedVertex> plan = new ArrayList<>();
        plan.add(vertex("source", true, true, true, "source-0"));
        plan.add(sink);
        CheckpointTriggered written = CheckpointTriggered.newBuilder().setJobId(JOB).setCheckpointId(id)
                .setTimestampMs(timestampMs).setType(CheckpointType.CHECKPOINT).setPeriodic(true).setForce(false)
                .setStorageLocation("file:///cp/" + JOB + "/chk-" + id).setPlan(plan)
                .setRoles(List.of()).setTimeoutAtMs(timestampMs + 10_000).build();
        return (CheckpointTriggered) CairnSerdes.control().deserialize("cairn.control",
                FrozenSchemaWriter.encode(new ControlEnvelope(written), 1)).getEvent();
    }

    static CheckpointCompleted completed(long id, long lastSubsumedId) {
        return CheckpointCompleted.newBuilder().setJobId(JOB).setCheckpointId(id).setType(CheckpointType.CHECKPOINT)
                .setTriggerTimestampMs(0).setCompletionTimestampMs(1).setStorageLocation("file:///cp/" + JOB)
                .setSubtaskStates(List.of()).setTotalSizeBytes(0).setLastSubsumedId(lastSubsumedId)
                .setOptions(SnapshotOptions.newBuilder().build()).build();
    }

    static CheckpointAborted aborted(long id, long latestCompletedId) {
        return CheckpointAborted.newBuilder().setJobId(JOB).setCheckpointId(id).setType(CheckpointType.CHECKPOINT)
                .setReason(CheckpointFailureReason.CHECKPOINT_EXPIRED).setMessage("expired")
                .setLatestCompletedId(latestCompletedId).setTimestampMs(1)
                .setOptions(SnapshotOptions.newBuilder().build()).build();
    }

    /** Snapshot options as the coordinator resolves them. */
    static SnapshotOptions options(PostCheckpointAction action) {
        return SnapshotOptions.newBuilder().setBackupType(BackupType.INCREMENTAL)
                .setSavepointFormat(SavepointFormat.NATIVE).setPostCheckpointAction(action)
                .setAlignment(AlignmentType.UNALIGNED).setAlignedTimeoutMs(250).build();
    }

    /** A savepoint of {@link #JOB} with the given post-checkpoint action (stop-with-savepoint unless NONE). */
    static CheckpointTriggered savepoint(long id, long timestampMs, PostCheckpointAction action) {
        CheckpointTriggered trigger = trigger(id, timestampMs);
        trigger.setType(CheckpointType.SAVEPOINT);
        trigger.setStorageLocation("s3://savepoints/sp-" + id);
        trigger.setOptions(options(action));
        return trigger;
    }

    /** The completion of a savepoint with the given post-checkpoint action. */
    static CheckpointCompleted savepointCompleted(long id, PostCheckpointAction action) {
        CheckpointCompleted completed = completed(id, -1);
        completed.setType(CheckpointType.SAVEPOINT);
        completed.setOptions(options(action));
        return completed;
    }

    /** The abort of a savepoint with the given post-checkpoint action. */
    static CheckpointAborted savepointAborted(long id, PostCheckpointAction action) {
        CheckpointAborted aborted = aborted(id, -1);
        aborted.setType(CheckpointType.SAVEPOINT);
        aborted.setOptions(options(action));
        return aborted;
    }

    /** The participants of a checkpoint of {@link #JOB} are triggered. */
    static ParticipantsTriggered participantsTriggered(long id, long timestampMs, String... participants) {
        return ParticipantsTriggered.newBuilder().setJobId(JOB).setCheckpointId(id).setTimestampMs(timestampMs)
                .setType(CheckpointType.CHECKPOINT).setPeriodic(true).setForce(false)
                .setStorageLocation("file:///cp/" + JOB + "/chk-" + id).setTimeoutAtMs(timestampMs + 10_000)
                .setOptions(SnapshotOptions.newBuilder().build()).setParticipants(List.of(participants)).build();
    }

    /** The coordinator discarded an ack of {@code attempt} for checkpoint {@code id}, naming {@code location}. */
    static AckDiscarded discarded(TaskAttempt attempt, long id, AckDiscardStatus status, String location) {
        return AckDiscarded.newBuilder().setJobId(attempt.jobId()).setCheckpointId(id).setTaskId(attempt.taskId())
                .setSubtaskIndex(attempt.subtaskIndex()).setAttemptId(attempt.attemptId()).setStatus(status)
                .setStateHandle(location == null ? null
                        : StateHandle.newBuilder().setLocation(location).setSizeBytes(64L).build())
                .setMessage("checkpoint " + id + " is not pending").setTimestampMs(5).build();
    }

    /** As {@link #discarded}, the handle also listing {@code shared} objects (written for it, 8 bytes each). */
    static AckDiscarded discardedWithShared(TaskAttempt attempt, long id, String location, String... shared) {
        AckDiscarded discard = discarded(attempt, id, AckDiscardStatus.DISCARDED, location);
        List<SharedState> objects = new ArrayList<>();
        for (String object : shared) {
            objects.add(new SharedState(object, 8L, false));
        }
        discard.getStateHandle().setShared(objects);
        return discard;
    }

    /** The coordinator discarded the state of checkpoint {@code id} of {@link #JOB}, listing {@code objects}. */
    static StateDiscarded stateDiscarded(long id, DiscardReason reason, DiscardedObject... objects) {
        return StateDiscarded.newBuilder().setJobId(JOB).setCheckpointId(id).setType(CheckpointType.CHECKPOINT)
                .setReason(reason).setMessage("checkpoint " + id + " " + reason.name().toLowerCase())
                .setPart(0).setParts(1).setObjects(List.of(objects)).setKeptObjects(0).setTimestampMs(9).build();
    }

    /** An object of a subtask's state, 32 bytes. */
    static DiscardedObject subtaskObject(String taskId, int subtaskIndex, String location, boolean shared) {
        return DiscardedObject.newBuilder().setTaskId(taskId).setSubtaskIndex(subtaskIndex).setLocation(location)
                .setSizeBytes(32L).setShared(shared).build();
    }

    /** An object of a participant's state, 16 bytes. */
    static DiscardedObject participantObject(String participant, String location) {
        return DiscardedObject.newBuilder().setParticipant(participant).setLocation(location).setSizeBytes(16L)
                .build();
    }
}
