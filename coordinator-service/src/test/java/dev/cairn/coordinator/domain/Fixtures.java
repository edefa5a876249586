package dev.cairn.coordinator.domain;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import java.util.List;

/** Builders of commands and events for decider tests. */
final class Fixtures {

    static final String JOB = "job-1";
    static final String SOURCE = "source";
    static final String SINK = "sink";

    private Fixtures() {
    }

    /** interval 1000, timeout 600, minPause 0, maxConcurrent 1, tolerable 0, retained 1. */
    static CheckpointConfig.Builder config() {
        return CheckpointConfig.newBuilder()
                .setIntervalMs(1000)
                .setTimeoutMs(600)
                .setMinPauseMs(0)
                .setMaxConcurrent(1)
                .setTolerableFailures(0)
                .setRetained(1)
                .setStorageBaseLocation("mem://checkpoints");
    }

    /** source (parallelism 2, triggered, acknowledges) -> sink (parallelism 1, acknowledges only). */
    static JobSpec spec(CheckpointConfig.Builder config) {
        return spec(JOB, config, vertex(SOURCE, 2, true, true), vertex(SINK, 1, false, true));
    }

    static JobSpec spec() {
        return spec(config());
    }

    static JobSpec spec(String jobId, CheckpointConfig.Builder config, TaskVertex... vertices) {
        return JobSpec.newBuilder()
                .setJobId(jobId)
                .setTasks(List.of(vertices))
                .setConfig(config.build())
                .setTimestampMs(0)
                .build();
    }

    static TaskVertex vertex(String taskId, int parallelism, boolean triggered, boolean acknowledges) {
        return TaskVertex.newBuilder()
                .setTaskId(taskId)
                .setParallelism(parallelism)
                .setTriggered(triggered)
                .setAcknowledges(acknowledges)
                .setNotified(true)
                .build();
    }

    static String attempt(String taskId, int subtask, int number) {
        return taskId + "-" + subtask + "-a" + number;
    }

    static TaskStarted started(String jobId, String taskId, int subtask, String attemptId) {
        return TaskStarted.newBuilder()
                .setJobId(jobId)
                .setTaskId(taskId)
                .setSubtaskIndex(subtask)
                .setAttemptId(attemptId)
                .setTimestampMs(0)
                .build();
    }

    static Command.StartTask start(String taskId, int subtask, int attemptNumber) {
        return new Command.StartTask(started(JOB, taskId, subtask, attempt(taskId, subtask, attemptNumber)));
    }

    static CheckpointAcknowledged ack(String jobId, long checkpointId, String taskId, int subtask, String attemptId,
            long size) {
        return CheckpointAcknowledged.newBuilder()
                .setJobId(jobId)
                .setCheckpointId(checkpointId)
                .setTaskId(taskId)
                .setSubtaskIndex(subtask)
                .setAttemptId(attemptId)
                .setStateHandle(StateHandle.newBuilder()
                        .setLocation("mem://state/" + taskId + "/" + subtask + "/" + checkpointId + "/" + attemptId)
                        .setSizeBytes(size)
                        .build())
                .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(1).setAsyncDurationMs(2).build())
                .setTimestampMs(0)
                .build();
    }

    /** Ack of the first attempt of that subtask, 10 bytes. */
    static Command.Acknowledge acknowledge(long checkpointId, String taskId, int subtask) {
        return new Command.Acknowledge(ack(JOB, checkpointId, taskId, subtask, attempt(taskId, subtask, 1), 10));
    }

    static CheckpointDeclined declined(long checkpointId, String taskId, int subtask, CheckpointFailureReason reason) {
        CheckpointDeclined.Builder builder = CheckpointDeclined.newBuilder()
                .setJobId(JOB)
                .setCheckpointId(checkpointId)
                .setTaskId(taskId)
                .setSubtaskIndex(subtask)
                .setAttemptId(attempt(taskId, subtask, 1))
                .setMessage("snapshot failed")
                .setTimestampMs(0)
                // always set: the builder's enum default is resolved by class name (Avro class security)
                .setReason(reason != null ? reason : CheckpointFailureReason.CHECKPOINT_DECLINED);
        return builder.build();
    }

    static Command.Decline decline(long checkpointId, String taskId, int subtask) {
        return new Command.Decline(declined(checkpointId, taskId, subtask, null));
    }

    /** A request; {@code force} null takes Flink's default (savepoints forced, checkpoints not). */
    static TriggerRequest request(String requestId, CheckpointType type, Boolean force) {
        return TriggerRequest.newBuilder()
                .setJobId(JOB)
                .setRequestId(requestId)
                .setType(type)
                .setForce(force)
                .setRequester("test")
                .setTimestampMs(0)
                .build();
    }

    static Command.RequestTrigger checkpointRequest(String requestId) {
        return new Command.RequestTrigger(request(requestId, CheckpointType.CHECKPOINT, false));
    }

    static Command.RequestTrigger savepointRequest(String requestId, String target) {
        TriggerRequest request = request(requestId, CheckpointType.SAVEPOINT, null);
        request.setTargetLocation(target);
        return new Command.RequestTrigger(request);
    }

    static Command.ChangeJobStatus status(JobStatus status) {
        return new Command.ChangeJobStatus(
                JobStatusChange.newBuilder().setJobId(JOB).setStatus(status).setTimestampMs(0).build(), 0.0);
    }

    static Command.Tick tick() {
        return new Command.Tick(JOB);
    }
}
