package dev.cairn.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.TaskRescale;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sample pipeline rescaled while events flow, against an in-JVM coordinator requiring signed records: the count
 * task goes 2 → 3 → 1 and the sink 2 → 1, each rescale a {@code RescaleJob} on the requests topic (the job stops with
 * a savepoint, every worker exits 0, the job runs again with the new parallelism), after which the new set of worker
 * processes starts and restores through its sidecars. The results read read_committed count every key 1, 2, ..., n
 * exactly once, also when a new worker is SIGKILLed while it restores (the chaos case: before the first checkpoint
 * after the rescale completed). Logs: {@code target/pipeline-it/<job>/logs}.
 */
@ExtendWith(KafkaClusterExtension.class)
class PipelineRescaleIT {

    @RegisterExtension
    static final CoordinatorTestBed CAIRN = CoordinatorTestBed.perTestClass().create();

    private static final int EVENTS = 30_000;
    private static final int KEYS = 300;
    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void shouldCountEveryKeyExactlyOnceWhileTheCountAndTheSinkAreRescaled(KafkaCluster kafka) throws IOException {
        // given the pipeline running with two subtasks per task, and a third of the input produced
        PipelineJob pipeline = PipelineJob.named(CAIRN, kafka, "rescale", WAIT);
        String job = pipeline.id();
        PipelineTopology topology = pipeline.register();
        InputEvents input = new InputEvents(EVENTS, KEYS);
        ExactlyOnceCheck check = new ExactlyOnceCheck(input.expectedCounts());
        try (ResultsReader results = new ResultsReader(kafka.bootstrapServers(), topology.resultsTopic(), check);
                PipelineProcesses workers = PipelineProcesses.start(pipeline.settings())) {
            pipeline.awaitCompleted(1);
            input.produce(kafka.bootstrapServers(), topology.eventsTopic(), 0, EVENTS / 3);

            // when the count goes to 3 subtasks, more input comes, and then count and sink go to 1
            rescale(pipeline, workers, new PipelineTopology.Parallelism(2, 3, 2), Map.of(PipelineTopology.COUNT, 3));
            input.produce(kafka.bootstrapServers(), topology.eventsTopic(), EVENTS / 3, 2 * EVENTS / 3);
            pipeline.awaitCompleted(pipeline.completed().size() + 2);
            rescale(pipeline, workers, new PipelineTopology.Parallelism(2, 1, 1),
                    Map.of(PipelineTopology.COUNT, 1, PipelineTopology.SINK, 1));
            input.produce(kafka.bootstrapServers(), topology.eventsTopic(), 2 * EVENTS / 3, EVENTS);

            // then every event is counted exactly once, and no worker failed
            await("the output reaches every key's count").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                    .until(() -> results.readToEnd() >= 0 && check.reached());
            assertThat(workers.restarts()).as("no worker failed").isZero();
            pipeline.stopWithSavepoint();
            pipeline.awaitEveryWorkerExitsZero(workers);
            results.readToEnd();
            ExactlyOnceCheck.Report report = check.report();
            assertThat(report.passed()).as(report.toString()).isTrue();
        }
    }

    @Test
    void shouldCountEveryKeyExactlyOnceWhenNewWorkersAreKilledDuringTheRescalesRestore(KafkaCluster kafka)
            throws IOException {
        // given the pipeline running with two subtasks per task, with input produced
        PipelineJob pipeline = PipelineJob.named(CAIRN, kafka, "rescale-kill", WAIT);
        String job = pipeline.id();
        PipelineTopology topology = pipeline.register();
        InputEvents input = new InputEvents(EVENTS, KEYS);
        ExactlyOnceCheck check = new ExactlyOnceCheck(input.expectedCounts());
        try (ResultsReader results = new ResultsReader(kafka.bootstrapServers(), topology.resultsTopic(), check);
                PipelineProcesses workers = PipelineProcesses.start(pipeline.settings())) {
            pipeline.awaitCompleted(1);
            input.produce(kafka.bootstrapServers(), topology.eventsTopic(), 0, EVENTS / 2);

            // when the count goes to 3 subtasks and the sink to 1, and the new workers start
            long savepoint = awaitRescaled(job, requestRescale(job, Map.of(PipelineTopology.COUNT, 3,
                    PipelineTopology.SINK, 1), pipeline.completed().size()));
            pipeline.awaitEveryWorkerExitsZero(workers);
            workers.startRescaled(new PipelineTopology.Parallelism(2, 3, 1));

            // and sink-0 is SIGKILLed while it restores (resolving sink-1's old state too), so no checkpoint after
            // the rescale can have completed; and count-1 once it restored and input flows again
            awaitLog(workers, PipelineTopology.SINK, 0, "rescaled from parallelism 2 to 1");
            workers.kill(PipelineTopology.SINK, 0);
            assertThat(CAIRN.journal(CheckpointCompleted.class, c -> c.getJobId().equals(job)
                    && c.getCheckpointId() > savepoint)).as("checkpoints completed after the rescale's savepoint")
                    .isEmpty();
            awaitLog(workers, PipelineTopology.COUNT, 1, "restored rescaled");
            input.produce(kafka.bootstrapServers(), topology.eventsTopic(), EVENTS / 2, 3 * EVENTS / 4);
            workers.kill(PipelineTopology.COUNT, 1);
            input.produce(kafka.bootstrapServers(), topology.eventsTopic(), 3 * EVENTS / 4, EVENTS);

            // then the supervisor started them again, and every event is counted exactly once
            await("the output reaches every key's count").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                    .until(() -> results.readToEnd() >= 0 && check.reached());
            assertThat(workers.restarts()).as("the killed workers were started again").isGreaterThanOrEqualTo(2);
            results.readToEnd();
            ExactlyOnceCheck.Report report = check.report();
            assertThat(report.passed()).as(report.toString()).isTrue();
        }
    }

    /** Waits until the log of {@code role}'s subtask {@code subtask} says {@code what}. */
    private static void awaitLog(PipelineProcesses workers, String role, int subtask, String what) {
        await(role + "-" + subtask + " logs \"" + what + "\"").atMost(WAIT).pollInterval(Duration.ofMillis(20))
                .until(() -> Files.readString(workers.log(role, subtask)).contains(what));
    }

    /**
     * Asks the coordinator to rescale {@code tasks}, waits until the job runs again with the new parallelism and every
     * worker exited 0 after the stop's savepoint, starts the workers of {@code next}, and waits for two checkpoints.
     */
    private static void rescale(PipelineJob pipeline, PipelineProcesses workers, PipelineTopology.Parallelism next,
            Map<String, Integer> tasks) {
        int before = pipeline.completed().size();
        awaitRescaled(pipeline.id(), requestRescale(pipeline.id(), tasks, before));
        pipeline.awaitEveryWorkerExitsZero(workers);
        workers.startRescaled(next);
        pipeline.awaitCompleted(before + 3);
    }

    /**
     * Waits for the rescale's outcome: COMPLETED once the stop's savepoint completed and the job runs again with the
     * new parallelism, when the new workers may start (started earlier, they would read the old restore point).
     * Answers the savepoint's id.
     */
    private static long awaitRescaled(String job, String requestId) {
        await("the rescale " + requestId + " of " + job + " completes").atMost(WAIT).until(() -> !CAIRN.journal(
                RequestOutcome.class, o -> requestId.equals(o.getRequestId())
                        && o.getStatus() != RequestStatus.TRIGGERED).isEmpty());
        List<RequestOutcome> outcomes = CAIRN.journal(RequestOutcome.class, o -> requestId.equals(o.getRequestId())
                && o.getStatus() != RequestStatus.TRIGGERED);
        assertThat(outcomes).extracting(RequestOutcome::getStatus).containsOnly(RequestStatus.COMPLETED);
        return outcomes.get(0).getCheckpointId();
    }

    private static String requestRescale(String job, Map<String, Integer> tasks, int completedBefore) {
        String requestId = "rescale-" + job + "-" + completedBefore;
        CAIRN.sendRequest(job, new RequestEnvelope(RescaleJob.newBuilder().setJobId(job)
                .setRequestId(requestId)
                .setTasks(tasks.entrySet().stream().map(task -> TaskRescale.newBuilder().setTaskId(task.getKey())
                        .setParallelism(task.getValue()).build()).toList())
                .setRestoreMode(RestoreMode.NO_CLAIM).setRequester("PipelineRescaleIT")
                .setTimestampMs(System.currentTimeMillis()).build()));
        return requestId;
    }
}
