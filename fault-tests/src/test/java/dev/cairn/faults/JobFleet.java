package dev.cairn.faults;

import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kit.storage.SnapshotStorages;
import dev.cairn.sample.worker.CounterWorker;
import dev.cairn.sidecar.app.HookKind;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The load of a fault test: {@code jobs} jobs ({@code fault-job-0}, ...), each of two vertices of parallelism
 * one ({@code source}, {@code sink}) checkpointed every {@link #INTERVAL}, registered by producing {@link JobSpec}
 * records to {@code cairn.requests}, signed with the requests key derived from the run's master key as the CLI signs
 * them; and one sample {@link CounterWorker} per subtask with a real {@link Sidecar}
 * beside it in this JVM, acking through {@code cairn.acks}, every record signed with its job's key.
 * {@link #suspendAll()} stops periodic triggering (pending checkpoints are aborted), so that every checkpoint ends
 * and the invariants can be read.
 */
final class JobFleet implements AutoCloseable {

    static final Duration INTERVAL = Duration.ofMillis(500);
    /** Longer than a failover, so that checkpoints pending across it can still complete. */
    static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final List<String> TASKS = List.of("source", "sink");

    private final List<String> jobIds;
    private final CairnTopics topics;
    private final SignedRequests requests;
    private final Map<String, Sidecar> sidecars = new LinkedHashMap<>();
    private final Map<String, CounterWorker> workers = new LinkedHashMap<>();
    private final String bootstrapServers;
    private final SidecarMasterKey masterKey;
    private final Path workDir;

    private JobFleet(List<String> jobIds, CairnTopics topics, SignedRequests requests,
            String bootstrapServers, SidecarMasterKey masterKey, Path workDir) {
        this.jobIds = jobIds;
        this.topics = topics;
        this.requests = requests;
        this.bootstrapServers = bootstrapServers;
        this.masterKey = masterKey;
        this.workDir = workDir;
    }

    /**
     * Registers the jobs with requests signed with {@code masterKey}'s requests key and starts their workers and
     * sidecars, each sidecar signing with its job's key derived from {@code masterKey}; the topics must exist.
     */
    static JobFleet start(String bootstrapServers, CairnTopics topics, SidecarMasterKey masterKey, int jobs,
            Path workDir) {
        SignedRequests requests = new SignedRequests(bootstrapServers, topics, masterKey);
        JobFleet fleet = new JobFleet(IntStream.range(0, jobs).mapToObj(i -> "fault-job-" + i).toList(), topics,
                requests, bootstrapServers, masterKey, workDir);
        for (String jobId : fleet.jobIds) {
            fleet.requests.send(jobId, new RequestEnvelope(spec(jobId, workDir)));
            for (String task : TASKS) {
                fleet.startSubtask(jobId, task);
            }
        }
        return fleet;
    }

    /** Starts the worker of subtask 0 of {@code task} with its sidecar, which restores it from the restore point. */
    private CounterWorker startSubtask(String jobId, String task) {
        CounterWorker worker = new CounterWorker(SnapshotStorages.defaults(), Duration.ZERO, 0, 0);
        workers.put(jobId + "/" + task, worker);
        sidecars.put(jobId + "/" + task, Sidecar.start(new SidecarConfig(bootstrapServers, topics, jobId, task, 0,
                HookKind.JAVA, null, null, List.of(), SidecarConfig.DEFAULT_SNAPSHOT_TIMEOUT, Duration.ofSeconds(10),
                SidecarConfig.DEFAULT_STARTUP_TIMEOUT, Map.of(), masterKey.jobKey(jobId), null, null, null, null, null),
                worker));
        return worker;
    }

    /**
     * Stops the worker and sidecar of subtask 0 of {@code task} and starts new ones (a new attempt), which restore
     * from the job's latest completed checkpoint.
     *
     * @throws IllegalStateException when the restore fails (e.g. the restore point's state is gone)
     */
    CounterWorker restartSubtask(String jobId, String task) {
        sidecars.remove(jobId + "/" + task).close();
        workers.remove(jobId + "/" + task).close();
        return startSubtask(jobId, task);
    }

    /** Sets the status of one job: SUSPENDED stops its periodic triggering, RUNNING resumes it. */
    void changeStatus(String jobId, JobStatus status) {
        requests.changeStatus(jobId, status);
    }

    private static JobSpec spec(String jobId, Path workDir) {
        List<TaskVertex> vertices = TASKS.stream()
                .map(task -> TaskVertex.newBuilder().setTaskId(task).setParallelism(1).build()).toList();
        return JobSpec.newBuilder().setJobId(jobId).setTasks(vertices)
                .setConfig(CheckpointConfig.newBuilder().setIntervalMs(INTERVAL.toMillis())
                        .setTimeoutMs(TIMEOUT.toMillis()).setTolerableFailures(1_000_000)
                        .setStorageBaseLocation(workDir.resolve("checkpoints").toUri().toString()).build())
                .setTimestampMs(System.currentTimeMillis()).build();
    }

    List<String> jobIds() {
        return jobIds;
    }

    /** Stops periodic triggering of every job; the coordinator aborts what is pending. */
    void suspendAll() {
        for (String jobId : jobIds) {
            changeStatus(jobId, JobStatus.SUSPENDED);
        }
    }

    @Override
    public void close() {
        sidecars.values().forEach(Sidecar::close);
        workers.values().forEach(CounterWorker::close);
        requests.close();
    }
}
