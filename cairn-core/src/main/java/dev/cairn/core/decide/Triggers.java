package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.contract.SnapshotOptionsRules;
import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.core.state.PendingCheckpoints;
import dev.cairn.core.state.Retention;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.TriggerFailed;
import java.util.List;

/**
 * Starting a checkpoint chosen from the queue (Flink: CheckpointCoordinator.startTriggeringCheckpoint): plan it
 * ({@link TriggerPlan}), take the next id, then either trigger the tasks at once, or, when the job has
 * coordinator-side participants, ask them first ({@link ParticipantsTriggered}): the participants, then the master
 * hooks (Flink: operator coordinators, then master hooks), and trigger the tasks once all of them have answered
 * ({@link #participantsAnswered}).
 */
final class Triggers {

    /** What is triggered: from the queued request, or from the pending checkpoint whose participants answered. */
    private record Snapshot(long id, CheckpointType type, boolean periodic, boolean force, String location,
            long timeoutAt, String requestId, SnapshotOptions options) {
    }

    private Triggers() {
    }

    static void trigger(Decision d, String jobId, QueuedRequest request) {
        JobState job = d.job(jobId);
        JobSpec spec = spec(d, jobId);
        TriggerPlan plan = TriggerPlan.of(d.state, spec, job.getFinishedSubtasks() > 0);
        if (plan.failed()) {
            failTrigger(d, jobId, request, plan.failure());
            return;
        }
        long id = job.getNextCheckpointId();
        boolean savepoint = request.getType() == CheckpointType.SAVEPOINT;
        String location = savepoint
                ? JobSpecs.savepointLocation(jobId, job.getConfig(), id, request.getTargetLocation())
                : JobSpecs.checkpointLocation(jobId, job.getConfig(), id);
        Snapshot snapshot = new Snapshot(id, request.getType(), request.getPeriodic(), request.getForce(), location,
                d.now + job.getConfig().getTimeoutMs(), request.getRequestId(), options(d, jobId, job, request));
        List<String> firstAsked = Participants.askedFirst(spec);
        if (firstAsked.isEmpty()) {
            emitTriggered(d, jobId, snapshot, plan);
        } else {
            askParticipants(d, jobId, snapshot, firstAsked);
        }
        if (request.getRequestId() != null) {
            d.outcome(jobId, request.getRequestId(), RequestStatus.TRIGGERED, null, null, id);
        }
        if (firstAsked.isEmpty()) {
            completeIfNothingToWaitFor(d, jobId, id);
        }
    }

    /**
     * The request's options; a checkpoint is FULL while the job's restore point is one restored in NO_CLAIM mode, so
     * that the first checkpoint after such a restore shares nothing with it (Flink: RestoreMode.NO_CLAIM).
     */
    private static SnapshotOptions options(Decision d, String jobId, JobState job, QueuedRequest request) {
        SnapshotOptions options = SnapshotOptionsRules.of(job.getConfig(), request);
        if (request.getType() == CheckpointType.CHECKPOINT && options.getBackupType() != BackupType.FULL
                && Retention.fullCheckpointNext(d.state.retained(jobId))) {
            return SnapshotOptions.newBuilder(options).setBackupType(BackupType.FULL).build();
        }
        return options;
    }

    /**
     * Every participant asked so far has answered: ask the master hooks not asked yet (Flink snapshots master hooks
     * after the operator coordinators), or, when there are none, trigger the tasks.
     */
    static void participantsAnswered(Decision d, String jobId, PendingCheckpoint pending) {
        List<String> hooks = Participants.notAskedYet(spec(d, jobId), pending);
        if (hooks.isEmpty()) {
            triggerTasks(d, jobId, pending);
        } else {
            askParticipants(d, jobId, snapshotOf(pending), hooks);
        }
    }

    private static void askParticipants(Decision d, String jobId, Snapshot snapshot, List<String> participants) {
        d.emit(ParticipantsTriggered.newBuilder()
                .setJobId(jobId)
                .setCheckpointId(snapshot.id())
                .setTimestampMs(d.now)
                .setType(snapshot.type())
                .setPeriodic(snapshot.periodic())
                .setForce(snapshot.force())
                .setStorageLocation(snapshot.location())
                .setTimeoutAtMs(snapshot.timeoutAt())
                .setRequestId(snapshot.requestId())
                .setOptions(snapshot.options())
                .setParticipants(List.copyOf(participants))
                .build());
    }

    private static Snapshot snapshotOf(PendingCheckpoint pending) {
        return new Snapshot(pending.getCheckpointId(), pending.getType(), pending.getPeriodic(), pending.getForce(),
                pending.getStorageLocation(), pending.getTimeoutAtMs(), pending.getRequestId(), pending.getOptions());
    }

    /** Every participant of a pending checkpoint has answered: trigger its tasks, planned anew now. */
    private static void triggerTasks(Decision d, String jobId, PendingCheckpoint pending) {
        JobSpec spec = spec(d, jobId);
        TriggerPlan plan = TriggerPlan.of(d.state, spec, d.job(jobId).getFinishedSubtasks() > 0);
        if (plan.failed()) {
            Aborts.abort(d, jobId, pending, CheckpointFailureReason.NOT_ALL_REQUIRED_TASKS_RUNNING, plan.failure());
            return;
        }
        emitTriggered(d, jobId, snapshotOf(pending), plan);
        completeIfNothingToWaitFor(d, jobId, pending.getCheckpointId());
    }

    /** The registered spec of a job that has state: a job's state is made by its spec. */
    private static JobSpec spec(Decision d, String jobId) {
        return d.state.spec(jobId).orElseThrow(() -> new IllegalStateException("no spec of job " + jobId));
    }

    private static void emitTriggered(Decision d, String jobId, Snapshot snapshot, TriggerPlan plan) {
        d.emit(CheckpointTriggered.newBuilder()
                .setJobId(jobId)
                .setCheckpointId(snapshot.id())
                .setTimestampMs(d.now)
                .setType(snapshot.type())
                .setPeriodic(snapshot.periodic())
                .setForce(snapshot.force())
                .setStorageLocation(snapshot.location())
                .setPlan(List.of())
                .setAcksExpected(plan.acksExpected())
                .setRoles(plan.roles())
                .setTimeoutAtMs(snapshot.timeoutAt())
                .setRequestId(snapshot.requestId())
                .setOptions(snapshot.options())
                .setFinishedSubtasks(plan.finishedSubtasks())
                .setFinishedStateBytes(plan.finishedStateBytes())
                .build());
    }

    /** A checkpoint whose running subtasks do not acknowledge (they all finished) completes when triggered. */
    private static void completeIfNothingToWaitFor(Decision d, String jobId, long id) {
        PendingCheckpoints.find(d.job(jobId), id).ifPresent(pending -> {
            CheckpointProgress progress = d.state.progress(jobId, id);
            if (progress.acksReceived() >= pending.getAcksExpected()) {
                Completions.complete(d, jobId, pending, progress);
            }
        });
    }

    private static void failTrigger(Decision d, String jobId, QueuedRequest request, String message) {
        CheckpointFailureReason reason = CheckpointFailureReason.NOT_ALL_REQUIRED_TASKS_RUNNING;
        d.emit(TriggerFailed.newBuilder()
                .setJobId(jobId)
                .setRequestId(request.getRequestId())
                .setType(request.getType())
                .setPeriodic(request.getPeriodic())
                .setReason(reason)
                .setMessage(message)
                .setTimestampMs(d.now)
                .build());
        CheckpointRequestDecider.failed(d, jobId, request, reason, message);
    }
}
