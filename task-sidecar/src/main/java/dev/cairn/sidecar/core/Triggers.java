package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.PlannedVertex;
import dev.cairn.events.TaskRoles;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.SnapshotRequest;
import java.util.List;
import java.util.Optional;

/**
 * Which triggers concern a sidecar, and with which roles: a task attempt answers {@link CheckpointTriggered}, a
 * participant answers {@link ParticipantsTriggered} that names it. Pure.
 */
final class Triggers {

    private Triggers() {
    }

    /**
     * A checkpoint this sidecar has a part in.
     *
     * @param snapshots whether the worker snapshots for it
     * @param acknowledges whether the snapshot is answered with an ack (a decline is sent either way)
     * @param notified whether the worker is told how it ended
     */
    record Planned(long checkpointId, long timestampMs, CheckpointType type, String storageLocation,
            CheckpointOptions options, boolean snapshots, boolean acknowledges, boolean notified) {

        /** The same checkpoint without a snapshot (the worker is only told how it ends). */
        Planned notifyOnly() {
            return new Planned(checkpointId, timestampMs, type, storageLocation, options, false, false, notified);
        }

        /**
         * What the hook is asked for.
         *
         * @param latestCompletedId the newest completed checkpoint of the job the sidecar knows of now (-1: none)
         */
        SnapshotRequest request(SidecarIdentity identity, long latestCompletedId) {
            if (identity instanceof Participant participant) {
                return SnapshotRequest.forParticipant(checkpointId, timestampMs, type, storageLocation,
                        participant.jobId(), participant.name(), options).withLatestCompletedId(latestCompletedId);
            }
            TaskAttempt attempt = (TaskAttempt) identity;
            return SnapshotRequest.forTask(checkpointId, timestampMs, type, storageLocation, attempt.jobId(),
                    attempt.taskId(), attempt.subtaskIndex(), options).withLatestCompletedId(latestCompletedId);
        }
    }

    /**
     * The attempt's part in a checkpoint: the roles the trigger lists for its task, or the default (all three)
     * when it lists none; empty for another job's trigger, when a version 1 plan does not name this attempt,
     * and when the task has no role at all.
     */
    static Optional<Planned> forTask(CheckpointTriggered trigger, TaskAttempt attempt) {
        if (!attempt.jobId().equals(trigger.getJobId())) {
            return Optional.empty();
        }
        return roles(trigger, attempt)
                .filter(r -> r.getTriggered() || r.getAcknowledges() || r.getNotified())
                .map(r -> new Planned(trigger.getCheckpointId(), trigger.getTimestampMs(), trigger.getType(),
                        trigger.getStorageLocation(), CheckpointOptions.from(trigger.getOptions()),
                        r.getTriggered() || r.getAcknowledges(), r.getAcknowledges(), r.getNotified()));
    }

    /** The participant's part: it snapshots, acks and is notified when the trigger names it; else empty. */
    static Optional<Planned> forParticipant(ParticipantsTriggered trigger, Participant participant) {
        if (!participant.jobId().equals(trigger.getJobId())
                || !trigger.getParticipants().contains(participant.name())) {
            return Optional.empty();
        }
        return Optional.of(new Planned(trigger.getCheckpointId(), trigger.getTimestampMs(), trigger.getType(),
                trigger.getStorageLocation(), CheckpointOptions.from(trigger.getOptions()), true, true, true));
    }

    private static Optional<TaskRoles> roles(CheckpointTriggered trigger, TaskAttempt attempt) {
        if (!trigger.getPlan().isEmpty() && !planned(trigger.getPlan(), attempt)) {
            return Optional.empty();
        }
        for (TaskRoles roles : trigger.getRoles()) {
            if (roles.getTaskId().equals(attempt.taskId())) {
                return Optional.of(roles);
            }
        }
        return Optional.of(new TaskRoles(attempt.taskId(), true, true, true));
    }

    /** Whether a version 1 trigger's plan names the attempt (its roles come decoded, its attempts only here). */
    private static boolean planned(List<PlannedVertex> plan, TaskAttempt attempt) {
        for (PlannedVertex vertex : plan) {
            if (vertex.getTaskId().equals(attempt.taskId())) {
                List<String> attempts = vertex.getAttemptIds();
                return attempt.subtaskIndex() < attempts.size()
                        && attempt.attemptId().equals(attempts.get(attempt.subtaskIndex()));
            }
        }
        return false;
    }
}
