package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PlannedVertex;
import dev.cairn.events.TaskRoles;
import java.util.ArrayList;
import java.util.List;

/** Control events for one job, as the coordinator would write them, for tests of the sidecar's rules. */
final class ControlEvents {

    static final String JOB = "orders";
    static final String TASK = "sink";
    static final String ATTEMPT = "attempt-new";
    static final TaskAttempt ME = new TaskAttempt(JOB, TASK, 1, ATTEMPT);

    private ControlEvents() {
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
                .setRoles(roles).setTimeoutAtMs(timestampMs + 10_000).build();
    }

    /** A version 1 checkpoint of {@link #JOB}, whose plan has a source and the given sink vertex. */
    static CheckpointTriggered triggerV1(long id, long timestampMs, PlannedVertex sink) {
        List<PlannedVertex> plan = new ArrayList<>();
        plan.add(vertex("source", true, true, true, "source-0"));
        plan.add(sink);
        return CheckpointTriggered.newBuilder().setJobId(JOB).setCheckpointId(id).setTimestampMs(timestampMs)
                .setType(CheckpointType.CHECKPOINT).setPeriodic(true).setForce(false)
                .setStorageLocation("file:///cp/" + JOB + "/chk-" + id).setPlan(plan)
                .setRoles(List.of()).setTimeoutAtMs(timestampMs + 10_000).build();
    }

    static CheckpointCompleted completed(long id, long lastSubsumedId) {
        return CheckpointCompleted.newBuilder().setJobId(JOB).setCheckpointId(id).setType(CheckpointType.CHECKPOINT)
                .setTriggerTimestampMs(0).setCompletionTimestampMs(1).setStorageLocation("file:///cp/" + JOB)
                .setSubtaskStates(List.of()).setTotalSizeBytes(0).setLastSubsumedId(lastSubsumedId).build();
    }

    static CheckpointAborted aborted(long id, long latestCompletedId) {
        return CheckpointAborted.newBuilder().setJobId(JOB).setCheckpointId(id).setType(CheckpointType.CHECKPOINT)
                .setReason(CheckpointFailureReason.CHECKPOINT_EXPIRED).setMessage("expired")
                .setLatestCompletedId(latestCompletedId).setTimestampMs(1).build();
    }
}
