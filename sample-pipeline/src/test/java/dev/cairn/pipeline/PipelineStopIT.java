package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sample pipeline stopped and resumed against an in-JVM coordinator: a stop-with-savepoint while input is in
 * flight, the job set RUNNING again and its workers restarted (they restore the stop's savepoint), more input, and
 * at last a stop with drain. The results read read_committed count every key 1, 2, ..., n exactly once, and no sink
 * went back behind its output. Logs: {@code target/pipeline-it/<job>/logs}.
 */
@ExtendWith(KafkaClusterExtension.class)
class PipelineStopIT {

    @RegisterExtension
    static final CoordinatorTestBed CAIRN = CoordinatorTestBed.perTestClass().create();

    private static final int EVENTS = 20_000;
    private static final int KEYS = 200;
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final List<String> WORKER_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Xshare:auto");

    @Test
    void shouldResumeFromTheStopsSavepointExactlyOnceAndEndAtADrainedStop(KafkaCluster kafka) throws IOException {
        // given the pipeline running
        String job = CoordinatorTestBed.uniqueJobId("stop-resume");
        PipelineTopology topology = new PipelineTopology(job);
        Path dir = Path.of("target", "pipeline-it", job).toAbsolutePath();
        try (Admin admin = kafka.createAdmin()) {
            topology.createTopics(admin, (short) 1);
        }
        CAIRN.register(topology.jobSpec(dir.resolve("checkpoints")));
        InputEvents input = new InputEvents(EVENTS, KEYS);
        ExactlyOnceCheck check = new ExactlyOnceCheck(input.expectedCounts());
        PipelineProcesses.Settings settings = settings(kafka, job, dir);
        try (ResultsReader results = new ResultsReader(kafka.bootstrapServers(), topology.resultsTopic(), check)) {
            try (PipelineProcesses workers = PipelineProcesses.start(settings)) {
                awaitCompleted(job, 1);

                // when it stops with a savepoint, without drain, right after half the input was produced
                input.produce(kafka.bootstrapServers(), topology.eventsTopic(), 0, EVENTS / 2);
                stop(job, "stop-" + job, PostCheckpointAction.SUSPEND);
                awaitEveryWorkerExitsZero(workers);
            }

            // and when the job is RUNNING again, its workers restart, and the rest of the input comes
            CAIRN.sendRequest(job, new RequestEnvelope(JobStatusChange.newBuilder().setJobId(job)
                    .setStatus(JobStatus.RUNNING).setTimestampMs(System.currentTimeMillis()).build()));
            await("the job runs again").atMost(WAIT).until(() -> lastStatus(job) == JobStatus.RUNNING);
            try (PipelineProcesses workers = PipelineProcesses.start(settings)) {
                input.produce(kafka.bootstrapServers(), topology.eventsTopic(), EVENTS / 2, EVENTS);

                // then every event is counted exactly once
                await("the output reaches every key's count").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                        .until(() -> results.readToEnd() >= 0 && check.reached());

                // and a stop with drain ends every worker
                stop(job, "drain-" + job, PostCheckpointAction.TERMINATE);
                awaitEveryWorkerExitsZero(workers);
                assertThat(workers.restarts()).as("no worker failed").isZero();
            }
            results.readToEnd();
            ExactlyOnceCheck.Report report = check.report();
            assertThat(report.passed()).as(report.toString()).isTrue();
        }
        for (int subtask = 0; subtask < PipelineTopology.PARALLELISM; subtask++) {
            String log = Files.readString(settings.logDir().resolve("sink-" + subtask + ".log"));
            assertThat(log).contains("already committed").doesNotContain("refuses to restore")
                    .doesNotContain("will be written again");
        }
    }

    private static PipelineProcesses.Settings settings(KafkaCluster kafka, String job, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path keyFile = dir.resolve("job.key");
        Files.writeString(keyFile, CAIRN.jobKey(job).orElseThrow().toBase64() + "\n", StandardCharsets.US_ASCII);
        return new PipelineProcesses.Settings(kafka.bootstrapServers(), job, dir.resolve("checkpoints"), keyFile,
                CAIRN.topics().prefix(), dir.resolve("logs"), System.getProperty("java.class.path"), WORKER_JVM);
    }

    private static void stop(String job, String requestId, PostCheckpointAction action) {
        CAIRN.sendRequest(job, new RequestEnvelope(Events.triggerRequest(job, requestId)
                .setType(CheckpointType.SAVEPOINT).setPostCheckpointAction(action).build()));
    }

    private static JobStatus lastStatus(String job) {
        List<JobStatusChange> changes = CAIRN.journal(JobStatusChange.class, c -> c.getJobId().equals(job));
        return changes.isEmpty() ? null : changes.get(changes.size() - 1).getStatus();
    }

    private static void awaitCompleted(String job, int count) {
        await("checkpoint number " + count + " of " + job + " completes").atMost(WAIT).until(() -> CAIRN.journal(
                CheckpointCompleted.class, c -> c.getJobId().equals(job)).size() >= count);
    }

    private static void awaitEveryWorkerExitsZero(PipelineProcesses workers) {
        await("every worker exits after the stop-with-savepoint").atMost(WAIT).until(() -> exitStatuses(workers)
                .size() == PipelineTopology.tasks().size() * PipelineTopology.PARALLELISM);
        assertThat(exitStatuses(workers)).containsOnly(0);
    }

    private static List<Integer> exitStatuses(PipelineProcesses workers) {
        return PipelineTopology.tasks().stream().flatMap(role -> IntStream.range(0, PipelineTopology.PARALLELISM)
                .mapToObj(subtask -> workers.finished(role, subtask))).flatMap(Optional::stream).toList();
    }
}
