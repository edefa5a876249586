package dev.cairn.core.testing;

import dev.cairn.core.events.Command;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantDeclined;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.StateHandle;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import java.util.List;

/** Builders of commands and events for decider tests. */
public final class Fixtures {

    public static final String JOB = "job-1";
    public static final String SOURCE = "source";
    public static final String SINK = "sink";

    private Fixtures() {
    }

    /** interval 1000, timeout 600, minPause 0, maxConcurrent 1, tolerable 0, retained 1. */
    public static CheckpointConfig.Builder config() {
        return CheckpointConfig.newBuilder()
                .setIntervalMs(1000)
                .setTimeoutMs(600)
                .setMinPauseMs(0)
                .setMaxConcurrent(1)
                .setTolerableFailures(0)
                .setRetained(1)
                .setStorageBaseLocation("file:///checkpoints");
    }

    /** source (parallelism 2, triggered, acknowledges) -> sink (parallelism 1, acknowledges only). */
    public static JobSpec spec(CheckpointConfig.Builder config) {
        return spec(JOB, config, vertex(SOURCE, 2, true, true), vertex(SINK, 1, false, true));
    }

    public static JobSpec spec() {
        return spec(config());
    }

    public static JobSpec spec(String jobId, CheckpointConfig.Builder config, TaskVertex... vertices) {
        return Events.jobSpec(jobId).setTasks(List.of(vertices)).setConfig(config.build()).setTimestampMs(0).build();
    }

    public static TaskVertex vertex(String taskId, int parallelism, boolean triggered, boolean acknowledges) {
        return TaskVertex.newBuilder()
                .setTaskId(taskId)
                .setParallelism(parallelism)
                .setTriggered(triggered)
                .setAcknowledges(acknowledges)
                .setNotified(true)
                .build();
    }

    public static String attempt(String taskId, int subtask, int number) {
        return taskId + "-" + subtask + "-a" + number;
    }

    public static TaskStarted started(String jobId, String taskId, int subtask, String attemptId) {
        return Events.taskStarted(jobId, taskId, subtask, attemptId).setTimestampMs(0).build();
    }

    /**
     * Attempt {@code attemptNumber} of the subtask, started at {@code attemptNumber} ms: later attempts start later.
     */
    public static Command.StartTask start(String taskId, int subtask, int attemptNumber) {
        return new Command.StartTask(Events.taskStarted(JOB, taskId, subtask, attempt(taskId, subtask, attemptNumber))
                .setTimestampMs(attemptNumber).build());
    }

    public static CheckpointAcknowledged ack(String jobId, long checkpointId, String taskId, int subtask,
            String attemptId, long size) {
        return Events.ack(jobId, checkpointId, taskId, subtask, attemptId)
                .setStateHandle(Events.state("mem://state/" + taskId + "/" + subtask + "/" + checkpointId + "/"
                        + attemptId, size))
                .setTimestampMs(0).build();
    }

    /** Ack of the first attempt of that subtask, 10 bytes. */
    public static Command.Acknowledge acknowledge(long checkpointId, String taskId, int subtask) {
        return new Command.Acknowledge(ack(JOB, checkpointId, taskId, subtask, attempt(taskId, subtask, 1), 10));
    }

    public static CheckpointDeclined declined(long checkpointId, String taskId, int subtask,
            CheckpointFailureReason reason) {
        // always set: the builder's enum default is resolved by class name (Avro class security)
        return Events.decline(JOB, checkpointId, taskId, subtask, attempt(taskId, subtask, 1))
                .setMessage("snapshot failed").setTimestampMs(0)
                .setReason(reason != null ? reason : CheckpointFailureReason.CHECKPOINT_DECLINED).build();
    }

    public static Command.Decline decline(long checkpointId, String taskId, int subtask) {
        return new Command.Decline(declined(checkpointId, taskId, subtask, null));
    }

    /** A request; {@code force} null takes Flink's default (savepoints forced, checkpoints not). */
    public static TriggerRequest request(String requestId, CheckpointType type, Boolean force) {
        return Events.triggerRequest(JOB, requestId).setType(type).setForce(force).setTimestampMs(0).build();
    }

    public static Command.RequestTrigger checkpointRequest(String requestId) {
        return new Command.RequestTrigger(request(requestId, CheckpointType.CHECKPOINT, false));
    }

    public static Command.RequestTrigger savepointRequest(String requestId, String target) {
        TriggerRequest request = request(requestId, CheckpointType.SAVEPOINT, null);
        request.setTargetLocation(target);
        return new Command.RequestTrigger(request);
    }

    public static Command.ChangeJobStatus status(JobStatus status) {
        return new Command.ChangeJobStatus(
                JobStatusChange.newBuilder().setJobId(JOB).setStatus(status).setTimestampMs(0).build(), 0.0);
    }

    public static Command.Tick tick() {
        return new Command.Tick(JOB);
    }

    /** The spec of {@link #spec(CheckpointConfig.Builder)} with coordinator-side participants, in this order. */
    public static JobSpec specWithParticipants(CheckpointConfig.Builder config, String... participants) {
        JobSpec spec = spec(config);
        spec.setParticipants(List.of(participants));
        return spec;
    }

    public static StateHandle handle(String location, long size) {
        return StateHandle.newBuilder().setLocation(location).setSizeBytes(size).build();
    }

    /** The first attempt of that subtask finished for good with a final state of {@code size} bytes. */
    public static Command.FinishTask finish(String taskId, int subtask, long size) {
        return finish(taskId, subtask, 1, handle("mem://final/" + taskId + "/" + subtask, size));
    }

    /** That attempt of the subtask finished for good; {@code finalState} null: without state. */
    public static Command.FinishTask finish(String taskId, int subtask, int attemptNumber, StateHandle finalState) {
        return new Command.FinishTask(TaskFinished.newBuilder()
                .setJobId(JOB)
                .setTaskId(taskId)
                .setSubtaskIndex(subtask)
                .setAttemptId(attempt(taskId, subtask, attemptNumber))
                .setFinalState(finalState)
                .setTimestampMs(0)
                .build());
    }

    /** A participant's ack of a checkpoint with a state of {@code size} bytes; a negative size: no state. */
    public static Command.AcknowledgeParticipant participantAck(long checkpointId, String participant, long size) {
        return new Command.AcknowledgeParticipant(ParticipantAcknowledged.newBuilder()
                .setJobId(JOB)
                .setCheckpointId(checkpointId)
                .setParticipant(participant)
                .setState(size < 0 ? null : handle("mem://participant/" + participant + "/" + checkpointId, size))
                .setTimestampMs(0)
                .build());
    }

    public static Command.DeclineParticipant participantDecline(long checkpointId, String participant,
            CheckpointFailureReason reason) {
        return new Command.DeclineParticipant(ParticipantDeclined.newBuilder()
                .setJobId(JOB)
                .setCheckpointId(checkpointId)
                .setParticipant(participant)
                // always set: the builder's enum default is resolved by class name (Avro class security)
                .setReason(reason)
                .setMessage("participant failed")
                .setTimestampMs(0)
                .build());
    }

    /** A stop-with-savepoint (Flink: stopWithSavepoint), force left to Flink's default. */
    public static Command.RequestTrigger stop(String requestId, PostCheckpointAction action) {
        TriggerRequest request = request(requestId, CheckpointType.SAVEPOINT, null);
        request.setPostCheckpointAction(action);
        return new Command.RequestTrigger(request);
    }

    /** A request with overrides of the job's snapshot options. */
    public static Command.RequestTrigger withOptions(String requestId, CheckpointType type, RequestedOptions options) {
        TriggerRequest request = request(requestId, type, null);
        request.setOptions(options);
        return new Command.RequestTrigger(request);
    }

    public static RequestedOptions.Builder overrides() {
        return RequestedOptions.newBuilder();
    }
}
