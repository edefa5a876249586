package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
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

    @Test
    void shouldResumeFromTheStopsSavepointExactlyOnceAndEndAtADrainedStop(KafkaCluster kafka) throws IOException {
        // given the pipeline running
        PipelineJob pipeline = PipelineJob.named(CAIRN, kafka, "stop-resume", WAIT);
        String job = pipeline.id();
        PipelineTopology topology = pipeline.register();
        InputEvents input = new InputEvents(EVENTS, KEYS);
        ExactlyOnceCheck check = new ExactlyOnceCheck(input.expectedCounts());
        PipelineProcesses.Settings settings = pipeline.settings();
        try (ResultsReader results = new ResultsReader(kafka.bootstrapServers(), topology.resultsTopic(), check)) {
            try (PipelineProcesses workers = PipelineProcesses.start(settings)) {
                pipeline.awaitCompleted(1);

                // when it stops with a savepoint, without drain, right after half the input was produced
                input.produce(kafka.bootstrapServers(), topology.eventsTopic(), 0, EVENTS / 2);
                pipeline.stop("stop-" + job, PostCheckpointAction.SUSPEND);
                pipeline.awaitEveryWorkerExitsZero(workers);
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
                pipeline.stop("drain-" + job, PostCheckpointAction.TERMINATE);
                pipeline.awaitEveryWorkerExitsZero(workers);
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

    private static JobStatus lastStatus(String job) {
        List<JobStatusChange> changes = CAIRN.journal(JobStatusChange.class, c -> c.getJobId().equals(job));
        return changes.isEmpty() ? null : changes.get(changes.size() - 1).getStatus();
    }
}
