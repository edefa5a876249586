package dev.cairn.bench.e2e;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The records the benchmark produces, with realistic sizes: 32-hex-digit job and vertex ids (as Flink's),
 * 36-character attempt ids (UUIDs) and state handle locations of a fixed length (default 100 bytes). A job's
 * subtasks are spread over vertices of at most {@link #MAX_VERTEX_PARALLELISM} subtasks (the coordinator
 * accepts at most 32,768 per vertex, Flink's limit). Every job made here gets its signing key at once
 * ({@link SidecarKeys#add}), before any of its records is produced.
 */
final class Workload {

    /** Subtasks per vertex; larger jobs get several vertices. */
    static final int MAX_VERTEX_PARALLELISM = 10_000;

    private static final long ONE_YEAR_MS = 365L * 24 * 3600 * 1000;

    private final int locationBytes;
    private final SidecarKeys keys;

    /** @param keys how the records of the acks topic are signed (or not) */
    Workload(int locationBytes, SidecarKeys keys) {
        this.locationBytes = locationBytes;
        this.keys = keys;
    }

    SidecarKeys keys() {
        return keys;
    }

    /** One vertex of a job: its id and the attempt id of every subtask. */
    record Vertex(String taskId, String[] attemptIds) {
    }

    /** A job of the benchmark with the attempts its sidecars started. */
    record Job(String id, List<Vertex> vertices, int subtasks) {
    }

    /** A job of {@code subtasks} subtasks with fresh ids, and its signing key when signed. */
    Job newJob(int subtasks) {
        List<Vertex> vertices = new ArrayList<>();
        for (int start = 0; start < subtasks; start += MAX_VERTEX_PARALLELISM) {
            int parallelism = Math.min(MAX_VERTEX_PARALLELISM, subtasks - start);
            String[] attempts = new String[parallelism];
            for (int s = 0; s < parallelism; s++) {
                attempts[s] = UUID.randomUUID().toString();
            }
            vertices.add(new Vertex(hexId(), attempts));
        }
        Job job = new Job(hexId(), List.copyOf(vertices), subtasks);
        keys.add(job.id());
        return job;
    }

    /**
     * The job's spec: checkpoints triggered manually only (a periodic interval of a year, which practically never
     * fires), one at a time, ten minutes to time out, one retained.
     */
    RequestEnvelope jobSpec(Job job) {
        List<TaskVertex> vertices = job.vertices().stream().map(v -> TaskVertex.newBuilder().setTaskId(v.taskId())
                .setParallelism(v.attemptIds().length).build()).toList();
        return new RequestEnvelope(JobSpec.newBuilder().setJobId(job.id()).setTasks(vertices)
                .setConfig(CheckpointConfig.newBuilder().setIntervalMs(ONE_YEAR_MS).setTimeoutMs(600_000)
                        .setMaxConcurrent(1).setTolerableFailures(1_000).setRetained(1)
                        .setStorageBaseLocation("s3://cairn-bench-checkpoints").build())
                .setTimestampMs(System.currentTimeMillis()).build());
    }

    AckEnvelope taskStarted(Job job, Vertex vertex, int subtask) {
        return new AckEnvelope(TaskStarted.newBuilder().setJobId(job.id()).setTaskId(vertex.taskId())
                .setSubtaskIndex(subtask).setAttemptId(vertex.attemptIds()[subtask])
                .setTimestampMs(System.currentTimeMillis()).build());
    }

    /** A manual trigger request (not forced) with the given request id. */
    RequestEnvelope trigger(Job job, String requestId) {
        return new RequestEnvelope(TriggerRequest.newBuilder().setJobId(job.id()).setRequestId(requestId)
                .setType(CheckpointType.CHECKPOINT).setForce(false).setRequester("e2e-benchmark")
                .setTimestampMs(System.currentTimeMillis()).build());
    }

    /** What the sidecar of one subtask produces when its snapshot of {@code checkpointId} is done. */
    AckEnvelope ack(Job job, Vertex vertex, int subtask, long checkpointId) {
        return new AckEnvelope(CheckpointAcknowledged.newBuilder().setJobId(job.id()).setCheckpointId(checkpointId)
                .setTaskId(vertex.taskId()).setSubtaskIndex(subtask).setAttemptId(vertex.attemptIds()[subtask])
                .setStateHandle(StateHandle.newBuilder().setLocation(location(job, vertex, subtask, checkpointId))
                        .setSizeBytes(1_048_576).build())
                .setMetrics(SubtaskMetrics.newBuilder().setSyncDurationMs(3).setAsyncDurationMs(250)
                        .setBytesPersisted(1_048_576).build())
                .setTimestampMs(System.currentTimeMillis()).build());
    }

    /** A location of exactly {@code locationBytes} ASCII characters, unique per job, checkpoint and subtask. */
    private String location(Job job, Vertex vertex, int subtask, long checkpointId) {
        StringBuilder text = new StringBuilder(locationBytes + 64).append("s3://cairn-bench-checkpoints/")
                .append(job.id()).append("/chk-").append(checkpointId).append('/').append(subtask).append('-')
                .append(vertex.attemptIds()[subtask]);
        while (text.length() < locationBytes) {
            text.append('x');
        }
        return text.length() > locationBytes ? text.substring(text.length() - locationBytes) : text.toString();
    }

    private static String hexId() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
