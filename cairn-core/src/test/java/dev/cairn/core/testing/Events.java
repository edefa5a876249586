package dev.cairn.core.testing;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Events that tests build, with sensible defaults: each method returns the Avro builder, so a test overrides
 * what it cares about with the builder's {@code set...} methods and calls {@code build()}. Timestamps are the
 * wall clock's now; tests on a mocked clock set their own.
 *
 * <pre>{@code
 * JobSpec spec = Events.jobSpec("orders", "source", "sink").setConfig(Events.config(300, 60_000).build()).build();
 * CheckpointAcknowledged ack = Events.ack("orders", 1, "source", 0, "a1").setTimestampMs(now).build();
 * }</pre>
 */
public final class Events {

    /** Where the specs built here keep their checkpoints. */
    public static final String STORAGE = "file:///cairn-it";
    /** The state size of {@link #ack}. */
    public static final long ACK_SIZE_BYTES = 1_000;

    /** The start time of the latest {@link #taskStarted}, so that the next one starts later. */
    private static final AtomicLong LAST_START = new AtomicLong();

    private Events() {
    }

    /** The given interval and timeout, storage {@link #STORAGE}, Flink's defaults otherwise (no tolerable failure). */
    public static CheckpointConfig.Builder config(long intervalMs, long timeoutMs) {
        return CheckpointConfig.newBuilder().setIntervalMs(intervalMs).setTimeoutMs(timeoutMs)
                .setStorageBaseLocation(STORAGE);
    }

    /** A task vertex of {@code parallelism} subtasks, triggered, acknowledging and notified. */
    public static TaskVertex task(String taskId, int parallelism) {
        return TaskVertex.newBuilder().setTaskId(taskId).setParallelism(parallelism).build();
    }

    /** A job of the given tasks, each of parallelism 1, with {@link #config config(1_000, 60_000)}. */
    public static JobSpec.Builder jobSpec(String jobId, String... taskIds) {
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        for (String taskId : taskIds) {
            parallelism.put(taskId, 1);
        }
        return jobSpec(jobId, parallelism);
    }

    /** A job with the given parallelism per task (in map order), with {@link #config config(1_000, 60_000)}. */
    public static JobSpec.Builder jobSpec(String jobId, Map<String, Integer> parallelism) {
        List<TaskVertex> vertices = new ArrayList<>();
        parallelism.forEach((taskId, count) -> vertices.add(task(taskId, count)));
        return JobSpec.newBuilder().setJobId(jobId).setTasks(vertices).setConfig(config(1_000, 60_000).build())
                .setTimestampMs(System.currentTimeMillis());
    }

    /**
     * A job of the given tasks, each of parallelism 1, checkpointed every {@code intervalMs}, tolerating 100
     * failures (a broker-backed test's slow start fails a few checkpoints).
     */
    public static JobSpec job(String jobId, long intervalMs, long timeoutMs, String... taskIds) {
        return jobSpec(jobId, taskIds).setConfig(tolerant(intervalMs, timeoutMs)).build();
    }

    /** As {@link #job(String, long, long, String...)}, with the given parallelism per task (in map order). */
    public static JobSpec job(String jobId, long intervalMs, long timeoutMs, Map<String, Integer> parallelism) {
        return jobSpec(jobId, parallelism).setConfig(tolerant(intervalMs, timeoutMs)).build();
    }

    private static CheckpointConfig tolerant(long intervalMs, long timeoutMs) {
        return config(intervalMs, timeoutMs).setTolerableFailures(100).build();
    }

    /**
     * A new attempt of a subtask announces itself, started now: each call starts after the one before (the
     * coordinator orders attempts by start time, so a test's restart within the same millisecond still counts as
     * later).
     */
    public static TaskStarted.Builder taskStarted(String jobId, String taskId, int subtaskIndex, String attemptId) {
        long now = System.currentTimeMillis();
        return TaskStarted.newBuilder().setJobId(jobId).setTaskId(taskId).setSubtaskIndex(subtaskIndex)
                .setAttemptId(attemptId).setTimestampMs(LAST_START.updateAndGet(last -> Math.max(now, last + 1)));
    }

    /**
     * An ack with a state of {@link #ACK_SIZE_BYTES} at {@code <STORAGE>/<job>/chk-<id>/<task>}, sync 1 ms and
     * async 2 ms.
     */
    public static CheckpointAcknowledged.Builder ack(String jobId, long checkpointId, String taskId, int subtaskIndex,
            String attemptId) {
        return CheckpointAcknowledged.newBuilder().setJobId(jobId).setCheckpointId(checkpointId).setTaskId(taskId)
                .setSubtaskIndex(subtaskIndex).setAttemptId(attemptId)
                .setStateHandle(state(STORAGE + "/" + jobId + "/chk-" + checkpointId + "/" + taskId, ACK_SIZE_BYTES))
                .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(1).setAsyncDurationMs(2).build())
                .setTimestampMs(System.currentTimeMillis());
    }

    /** A state handle at {@code location} of {@code sizeBytes}. */
    public static StateHandle state(String location, long sizeBytes) {
        return StateHandle.newBuilder().setLocation(location).setSizeBytes(sizeBytes).build();
    }

    /** A subtask declines the checkpoint (CHECKPOINT_DECLINED, "test declines"). */
    public static CheckpointDeclined.Builder decline(String jobId, long checkpointId, String taskId, int subtaskIndex,
            String attemptId) {
        return CheckpointDeclined.newBuilder().setJobId(jobId).setCheckpointId(checkpointId).setTaskId(taskId)
                .setSubtaskIndex(subtaskIndex).setAttemptId(attemptId)
                .setReason(CheckpointFailureReason.CHECKPOINT_DECLINED).setMessage("test declines")
                .setTimestampMs(System.currentTimeMillis());
    }

    /** A user ({@code "test"}) asks for a checkpoint of the job's default type, not forced. */
    public static TriggerRequest.Builder triggerRequest(String jobId, String requestId) {
        return TriggerRequest.newBuilder().setJobId(jobId).setRequestId(requestId).setRequester("test")
                .setTimestampMs(System.currentTimeMillis());
    }

    /** A user changes the job's status. */
    public static JobStatusChange statusChange(String jobId, JobStatus status) {
        return JobStatusChange.newBuilder().setJobId(jobId).setStatus(status)
                .setTimestampMs(System.currentTimeMillis()).build();
    }
}
