package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobFailed;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.kafka.test.KafkaCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A sample pipeline job of the pipeline ITs on an in-JVM coordinator, as the ITs share it: its directory
 * {@code target/pipeline-it/<job>} (checkpoints, logs, the job's key), its topics and registration, the settings of
 * its worker processes, its stop-with-savepoint, and the waits on the coordinator's journal and the workers' exits.
 */
final class PipelineJob {

    private static final List<String> WORKER_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Xshare:auto");

    private final CoordinatorTestBed cairn;
    private final KafkaCluster kafka;
    private final String id;
    private final Path dir;
    private final Duration wait;

    private PipelineJob(CoordinatorTestBed cairn, KafkaCluster kafka, String id, Duration wait) {
        this.cairn = cairn;
        this.kafka = kafka;
        this.id = id;
        this.dir = Path.of("target", "pipeline-it", id).toAbsolutePath();
        this.wait = wait;
    }

    /** A job named {@code name} and a unique suffix on {@code cairn}, whose waits last at most {@code wait}. */
    static PipelineJob named(CoordinatorTestBed cairn, KafkaCluster kafka, String name, Duration wait) {
        return new PipelineJob(cairn, kafka, CoordinatorTestBed.uniqueJobId(name), wait);
    }

    String id() {
        return id;
    }

    /** The job's directory: its checkpoints, its workers' logs, its key. */
    Path dir() {
        return dir;
    }

    /** Creates the job's topics (replication 1) and registers its spec, checkpoints in its directory. */
    PipelineTopology register() {
        PipelineTopology topology = new PipelineTopology(id);
        try (Admin admin = kafka.createAdmin()) {
            topology.createTopics(admin, (short) 1);
        }
        cairn.register(topology.jobSpec(dir.resolve("checkpoints")));
        return topology;
    }

    /** The settings of the job's workers: its key written to its directory, its logs there too. */
    PipelineProcesses.Settings settings() throws IOException {
        Files.createDirectories(dir);
        Path keyFile = dir.resolve("job.key");
        Files.writeString(keyFile, cairn.jobKey(id).orElseThrow().toBase64() + "\n", StandardCharsets.US_ASCII);
        return new PipelineProcesses.Settings(kafka.bootstrapServers(), id, dir.resolve("checkpoints"), keyFile,
                cairn.topics().prefix(), dir.resolve("logs"), System.getProperty("java.class.path"), WORKER_JVM);
    }

    /** The job's checkpoints completed so far, as the coordinator's journal has them. */
    List<CheckpointCompleted> completed() {
        return cairn.journal(CheckpointCompleted.class, c -> c.getJobId().equals(id));
    }

    /** Waits until {@code count} of the job's checkpoints completed. */
    void awaitCompleted(int count) {
        await("checkpoint number " + count + " of " + id + " completes").atMost(wait)
                .until(() -> completed().size() >= count);
    }

    /** Asks for a savepoint {@code requestId} of the job, after which it does {@code action}. */
    void stop(String requestId, PostCheckpointAction action) {
        cairn.sendRequest(id, new RequestEnvelope(Events.triggerRequest(id, requestId)
                .setType(CheckpointType.SAVEPOINT).setPostCheckpointAction(action).build()));
    }

    /** Stops the job with a savepoint {@code stop-<job>}, suspending it. */
    void stopWithSavepoint() {
        stop("stop-" + id, PostCheckpointAction.SUSPEND);
    }

    /** Waits until every worker of the parallelism {@code workers} started last exited, and checks each with 0. */
    void awaitEveryWorkerExitsZero(PipelineProcesses workers) {
        PipelineTopology.Parallelism running = workers.parallelism();
        int all = running.source() + running.count() + running.sink();
        try {
            await("every worker exits after the stop-with-savepoint").atMost(wait)
                    .until(() -> exitStatuses(workers).size() == all);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "; what the journal says of job " + id + ": " + stopOutcome(),
                    e);
        }
        assertThat(exitStatuses(workers)).containsOnly(0);
    }

    /** The outcomes of the job's requests and its failures, as the journal has them: why a stop did not stop it. */
    private String stopOutcome() {
        List<String> outcomes = cairn.journal(RequestOutcome.class, o -> o.getJobId().equals(id)).stream()
                .map(o -> o.getRequestId() + " " + o.getStatus() + (o.getMessage() == null ? "" : " (" + o.getMessage()
                        + ")")).toList();
        List<String> failures = cairn.journal(JobFailed.class, f -> f.getJobId().equals(id)).stream()
                .map(f -> f.getCause().toString()).toList();
        return "request outcomes " + outcomes + ", job failures " + failures;
    }

    private static List<Integer> exitStatuses(PipelineProcesses workers) {
        PipelineTopology.Parallelism running = workers.parallelism();
        return PipelineTopology.tasks().stream().flatMap(role -> IntStream.range(0, running.of(role))
                .mapToObj(subtask -> workers.finished(role, subtask))).flatMap(Optional::stream).toList();
    }
}
