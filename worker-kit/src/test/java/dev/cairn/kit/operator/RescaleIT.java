package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.kit.sink.RestorePlan;
import dev.cairn.kit.sink.RestorePlan.Verdict;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Rescaling a source → count → sink dataflow of kit tasks against the in-JVM KRaft broker, with the test in the
 * coordinator's place ({@link KitJob#rescale}): the job stops with a savepoint, and the tasks go on with other
 * parallelisms, each subtask restored from the states the coordinator would hand it. Every key's committed counts
 * stay exactly 1, 2, ..., n.
 */
class RescaleIT extends KitJobTestBase {

    RescaleIT() {
        super("rescale");
    }

    @Test
    void shouldCountEveryKeyExactlyOnceWhenEveryTaskIsRescaledUpAndDown() throws Exception {
        // given a running job stopped with a savepoint while input was in flight
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        produce(1_000);
        stopAndAwait();

        // when it goes on with 3 sources, 3 counts and 1 sink, then with 1 source, 1 count and 2 sinks
        job.rescale(Map.of("source", 3, "count", 3, "sink", 1));
        assertThat(job.handedOver("sink-0")).map(RestorePlan::verdict).containsExactly(Verdict.ALREADY_COMMITTED);
        produce(1_000);
        awaitExactlyOnce();
        produce(500);
        stopAndAwait();
        job.rescale(Map.of("source", 1, "count", 1, "sink", 2));
        produce(1_000);

        // then every key is counted exactly once across both rescales
        awaitExactlyOnce();
        assertThat(job.restorePlan("sink-1")).map(RestorePlan::verdict).hasValue(Verdict.COMMIT_PENDING);
        assertThat(job.restorePlan("sink-0")).map(RestorePlan::verdict).hasValue(Verdict.ALREADY_COMMITTED);
    }

    @Test
    void shouldCountEveryKeyExactlyOnceWhenOnlyTheUpstreamOfTheSinkIsRescaled() throws Exception {
        // given a running job stopped with a savepoint while input was in flight
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        produce(1_000);
        stopAndAwait();

        // when the count goes to 3 subtasks and then to 1 while the sink keeps its 2, restoring its own states
        job.rescale(Map.of("count", 3));
        produce(1_000);
        awaitExactlyOnce();
        stopAndAwait();
        job.rescale(Map.of("count", 1));
        produce(1_000);

        // then the sink's channels of count-1 and count-2, gone, are retired, and every key is counted exactly once
        awaitExactlyOnce();
        assertThat(job.restorePlan("sink-0")).map(RestorePlan::verdict).hasValue(Verdict.ALREADY_COMMITTED);
    }

    @Test
    void shouldCommitAGoneSinkSubtasksPendingEpochsOnceThroughTheSubtaskThatResolvesIt() throws Exception {
        // given a job stopped with a savepoint that sink-1 never committed (it crashed before)
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        produce(1_000);
        long savepoint = job.stop(false, Set.of("sink-1"));
        awaitStopped("source-0", "source-1", "count-0", "count-1", "sink-0");

        // when the sink goes on with one subtask
        job.rescale(Map.of("sink", 1));

        // then sink-0 committed sink-1's pending epochs under sink-1's transactional id, and nothing is lost or doubled
        assertThat(job.handedOver("sink-0")).map(RestorePlan::verdict).containsExactly(Verdict.COMMIT_PENDING);
        assertThat(job.handedOver("sink-0")).map(RestorePlan::restored).containsExactly(savepoint);
        produce(1_000);
        awaitExactlyOnce();
    }

    @Test
    void shouldRollBackToTheRescaledPointWhenAnUpstreamRestartsBeforeTheFirstCheckpointAfterIt() throws Exception {
        // given a job rescaled to 3 counts and 1 sink, reading input
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        stopAndAwait();
        job.rescale(Map.of("count", 3, "sink", 1));
        produce(1_000);

        // when a count subtask restarts (from the rescaled point) before a checkpoint completed after the rescale
        job.restart("count-1");
        produce(500);

        // then its downstream rolls back to the rescaled point as needed, and every key is counted exactly once
        awaitExactlyOnce();
    }
}
