package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.pipeline.ExactlyOnceCheck;
import dev.cairn.pipeline.PipelineTopology;
import dev.cairn.pipeline.ResultsReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The course of a pipeline chaos test, the same whatever its faults: wait for the job's first checkpoint, produce the
 * input in slices, wait until a checkpoint triggered with the input flowing completes (the run's processes have
 * warmed up), run the faults one after another while the input goes on, wait until the output, read
 * read_committed, reaches every key's count, stop the job with a savepoint that drains it, read the output to its
 * end and print the run's figures ({@link ChaosReport}); then {@link #assertHeld} checks what every such run must show.
 */
final class ChaosRun {

    private static final Duration STOP_WAIT = Duration.ofMinutes(2);
    private static final int WORKERS = PipelineTopology.tasks().size() * PipelineTopology.PARALLELISM;

    /**
     * What a run ended with.
     *
     * @param kills the faults carried out
     * @param check the exactly-once check of the whole output
     * @param stop the final stop-with-savepoint's outcome
     * @param exits the exit statuses of the workers that ended for good after it
     */
    record Outcome(List<ChaosKills.Kill> kills, ExactlyOnceCheck.Report check, RequestOutcome stop,
            List<Integer> exits) {}

    private ChaosRun() {
    }

    /**
     * Runs {@code pipeline}'s course with {@code kills}: the input in {@code slices} slices over
     * {@code produceOver}, the output awaited up to {@code drainWait} once every fault has been carried out.
     */
    static Outcome run(ChaosPipeline pipeline, ChaosKills kills, int slices, Duration produceOver,
            Duration drainWait) {
        ExactlyOnceCheck check = new ExactlyOnceCheck(pipeline.input.expectedCounts());
        Awaitility.await("the pipeline completes its first checkpoint").atMost(STOP_WAIT)
                .pollInterval(Duration.ofMillis(100)).until(() -> !pipeline.completed().isEmpty());

        Instant producing = Instant.now();
        pipeline.produceInSlices(slices, produceOver.dividedBy(slices));
        if (pipeline.awaitCompletedTriggeredAfter(producing, STOP_WAIT).isEmpty()) {
            throw new IllegalStateException("no checkpoint triggered after the input started completed within "
                    + STOP_WAIT + ": the pipeline never ran with input, before any fault");
        }
        kills.runAll();
        try (ResultsReader results = new ResultsReader(pipeline.bootstrapServers(), pipeline.topology.resultsTopic(),
                check)) {
            try {
                Awaitility.await("the output reaches every key's count").atMost(drainWait)
                        .pollInterval(Duration.ofSeconds(1))
                        .until(() -> pipeline.producedAll() && results.readToEnd() >= 0 && check.reached());
            } catch (ConditionTimeoutException e) {
                Duration waited = Duration.ofMillis(System.currentTimeMillis() - pipeline.producingSinceMs());
                System.out.println(ChaosReport.of(pipeline, kills.done(), waited, check.report()));
                throw e;
            }
            Duration elapsed = Duration.ofMillis(System.currentTimeMillis() - pipeline.producingSinceMs());

            RequestOutcome stop = stopWithDrain(pipeline);
            results.readToEnd();
            ExactlyOnceCheck.Report report = check.report();
            System.out.println(ChaosReport.of(pipeline, kills.done(), elapsed, report));
            return new Outcome(kills.done(), report, stop, exitStatuses(pipeline));
        }
    }

    /**
     * What every run must show: every key counted exactly once, {@code faults} faults carried out and each
     * recovered, every stop with a killed worker failed and every stop before a kill after it completed, the final
     * stop-with-savepoint completed and every worker exited 0 after it.
     */
    static void assertHeld(Outcome outcome, int faults) {
        assertThat(outcome.check().passed()).as(outcome.check().toString()).isTrue();
        assertThat(outcome.kills()).hasSize(faults);
        assertThat(outcome.kills()).as("every kill recovered").allMatch(kill -> kill.recovered().isPresent());
        assertThat(outcome.kills()).as("every stop with a killed worker failed")
                .filteredOn(kill -> kill.kind() == ChaosKills.Kind.STOP)
                .allMatch(kill -> kill.stopOutcome().map(o -> o.getStatus() == RequestStatus.FAILED).orElse(false));
        assertThat(outcome.kills()).as("every stop before a kill after it completed")
                .filteredOn(kill -> kill.kind() == ChaosKills.Kind.AFTER_STOP)
                .allMatch(kill -> kill.stopOutcome().map(o -> o.getStatus() == RequestStatus.COMPLETED)
                        .orElse(false));
        assertThat(outcome.stop().getStatus()).as(outcome.stop().toString()).isEqualTo(RequestStatus.COMPLETED);
        assertThat(outcome.exits()).containsOnly(0).hasSize(WORKERS);
    }

    /** Stops the job with a savepoint that drains it; waits for its outcome and for every worker to exit. */
    private static RequestOutcome stopWithDrain(ChaosPipeline pipeline) {
        String requestId = pipeline.requestStop(true, pipeline.savepointTarget("final"));
        RequestOutcome outcome = Awaitility.await("the final stop-with-savepoint ends").atMost(STOP_WAIT)
                .until(() -> pipeline.outcome(requestId), Optional::isPresent).orElseThrow();
        System.out.println("[chaos] final stop-with-savepoint (drain): " + outcome);
        if (outcome.getStatus() == RequestStatus.COMPLETED) {
            Awaitility.await("every worker exits after the stop").atMost(STOP_WAIT)
                    .until(() -> exitStatuses(pipeline).size() == WORKERS);
        }
        return outcome;
    }

    private static List<Integer> exitStatuses(ChaosPipeline pipeline) {
        return PipelineTopology.tasks().stream()
                .flatMap(role -> IntStream.range(0, PipelineTopology.PARALLELISM)
                        .mapToObj(subtask -> pipeline.workers.finished(role, subtask)))
                .flatMap(Optional::stream).toList();
    }
}
