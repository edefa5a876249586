package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.pipeline.ExactlyOnceCheck;
import dev.cairn.pipeline.InputEvents;
import dev.cairn.pipeline.PipelineTopology;
import dev.cairn.pipeline.ResultsReader;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Exactly once on a real dataflow under chaos: a Kafka node process, two coordinator processes, and the sample
 * pipeline (source x2 → count x2 → exactly-once sink x2) as six worker processes, each with its sidecar embedded,
 * under a supervisor that starts again whatever dies. The input ({@code cairn.chaos.events}, default 1,000,000
 * events over 1,000 keys) is produced in slices over {@code cairn.chaos.produce.seconds} while {@code
 * cairn.faults.kills} SIGKILLs hit workers and coordinators ({@link ChaosKills}), some during an alignment, some
 * during a pending sink commit, some during a stop-with-savepoint (which must fail, the job running on), and a sink
 * right after a stop-with-savepoint completed, before it committed (it restores the stop's savepoint and commits; the
 * job is then resumed from the savepoint and its stopped workers started again, as a user redeploys). Once the
 * input is drained, a stop-with-savepoint with drain must complete and every worker exit 0, and the results, read
 * read_committed, must count every key 1, 2, ..., n exactly once. Logs: {@code target/faults/pipeline-chaos-*}.
 */
class PipelineChaosFaultIT {

    private static final int EVENTS = Integer.getInteger("cairn.chaos.events", 1_000_000);
    private static final int KEYS = 1_000;
    private static final int KILLS = Integer.getInteger("cairn.faults.kills", 20);
    private static final Duration PRODUCE_OVER = Duration.ofSeconds(Integer.getInteger("cairn.chaos.produce.seconds",
            200));
    private static final int SLICES = 100;
    private static final Duration DRAIN_WAIT = Duration.ofMinutes(10);
    private static final Duration STOP_WAIT = Duration.ofMinutes(2);

    @Test
    void shouldCountEveryEventExactlyOnceWhenWorkersAndCoordinatorsAreKilledDuringAlignmentsCommitsAndStops() {
        long seed = Long.getLong("cairn.chaos.seed", System.nanoTime());
        try (FaultCluster cluster = FaultCluster.start("pipeline-chaos", 1, 2, 0);
                ChaosPipeline pipeline = ChaosPipeline.start(cluster, "chaos-pipeline",
                        new InputEvents(EVENTS, KEYS))) {
            ExactlyOnceCheck check = new ExactlyOnceCheck(pipeline.input.expectedCounts());
            ChaosKills kills = new ChaosKills(pipeline, cluster, seed, KILLS);
            System.out.printf("[chaos] %,d events over %d keys produced over %s, %d kills (seed %d): %s%n", EVENTS,
                    KEYS, PRODUCE_OVER, KILLS, seed, kills.plan());
            Awaitility.await("the pipeline completes its first checkpoint").atMost(STOP_WAIT)
                    .pollInterval(Duration.ofMillis(100)).until(() -> !pipeline.completed().isEmpty());

            pipeline.produceInSlices(SLICES, PRODUCE_OVER.dividedBy(SLICES));
            kills.runAll();
            try (ResultsReader results = new ResultsReader(cluster.brokers.bootstrapServers(),
                    pipeline.topology.resultsTopic(), check)) {
                Awaitility.await("the output reaches every key's count").atMost(DRAIN_WAIT)
                        .pollInterval(Duration.ofSeconds(1))
                        .until(() -> pipeline.producedAll() && results.readToEnd() >= 0 && check.reached());
                Duration elapsed = Duration.ofMillis(System.currentTimeMillis() - pipeline.producingSinceMs());

                RequestOutcome stop = stopWithDrain(pipeline);
                results.readToEnd();
                ExactlyOnceCheck.Report report = check.report();
                System.out.println(ChaosReport.of(pipeline, kills.done(), elapsed, report));

                assertThat(report.passed()).as(report.toString()).isTrue();
                assertThat(kills.done()).hasSize(KILLS);
                assertThat(kills.done()).as("every kill recovered")
                        .allMatch(kill -> kill.recovered().isPresent());
                assertThat(kills.done()).as("every stop with a killed worker failed")
                        .filteredOn(kill -> kill.kind() == ChaosKills.Kind.STOP)
                        .allMatch(kill -> kill.stopOutcome().map(o -> o.getStatus() == RequestStatus.FAILED)
                                .orElse(false));
                assertThat(kills.done()).as("every stop before a kill after it completed")
                        .filteredOn(kill -> kill.kind() == ChaosKills.Kind.AFTER_STOP)
                        .allMatch(kill -> kill.stopOutcome().map(o -> o.getStatus() == RequestStatus.COMPLETED)
                                .orElse(false));
                assertThat(stop.getStatus()).as(stop.toString()).isEqualTo(RequestStatus.COMPLETED);
                assertThat(exitStatuses(pipeline)).containsOnly(0).hasSize(6);
            }
        }
    }

    /** Stops the job with a savepoint that drains it; waits for its outcome and for every worker to exit. */
    private static RequestOutcome stopWithDrain(ChaosPipeline pipeline) {
        String requestId = pipeline.requestStop(true, pipeline.savepointTarget("final"));
        RequestOutcome outcome = Awaitility.await("the final stop-with-savepoint ends").atMost(STOP_WAIT)
                .until(() -> pipeline.outcome(requestId), Optional::isPresent).orElseThrow();
        System.out.println("[chaos] final stop-with-savepoint (drain): " + outcome);
        if (outcome.getStatus() == RequestStatus.COMPLETED) {
            Awaitility.await("every worker exits after the stop").atMost(STOP_WAIT)
                    .until(() -> exitStatuses(pipeline).size() == 6);
        }
        return outcome;
    }

    private static List<Integer> exitStatuses(ChaosPipeline pipeline) {
        return PipelineTopology.tasks().stream()
                .flatMap(role -> java.util.stream.IntStream.range(0, PipelineTopology.PARALLELISM)
                        .mapToObj(subtask -> pipeline.workers.finished(role, subtask)))
                .flatMap(Optional::stream).toList();
    }
}
