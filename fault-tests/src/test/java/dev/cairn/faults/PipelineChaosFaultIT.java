package dev.cairn.faults;

import dev.cairn.pipeline.InputEvents;
import dev.cairn.pipeline.PipelineTopology;
import dev.cairn.s3.S3ProxyServer;
import java.time.Duration;
import java.util.Map;
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
 * read_committed, must count every key 1, 2, ..., n exactly once. The checkpoints and savepoints go to a bucket of an
 * S3 API server (S3Proxy) in the test's JVM; the report ends with what the bucket holds. Logs:
 * {@code target/faults/pipeline-chaos-*}.
 */
class PipelineChaosFaultIT {

    private static final int EVENTS = Integer.getInteger("cairn.chaos.events", 1_000_000);
    private static final int KEYS = 1_000;
    private static final int KILLS = Integer.getInteger("cairn.faults.kills", 20);
    private static final Duration PRODUCE_OVER = Duration.ofSeconds(Integer.getInteger("cairn.chaos.produce.seconds",
            200));
    private static final int SLICES = 100;
    private static final Duration DRAIN_WAIT = Duration.ofMinutes(10);

    @Test
    void shouldCountEveryEventExactlyOnceWhenWorkersAndCoordinatorsAreKilledDuringAlignmentsCommitsAndStops() {
        long seed = Long.getLong("cairn.chaos.seed", System.nanoTime());
        try (S3ProxyServer s3 = S3ProxyServer.start("pipeline-chaos");
                FaultCluster cluster = FaultCluster.start("pipeline-chaos", 1, 2, 0);
                ChaosPipeline pipeline = ChaosPipeline.start(cluster, "chaos-pipeline",
                        new InputEvents(EVENTS, KEYS), Map.of(), PipelineStorage.s3(s3),
                        PipelineTopology.Checkpointing.DEFAULTS)) {
            ChaosKills kills = new ChaosKills(pipeline, cluster, seed, KILLS);
            System.out.printf("[chaos] %,d events over %d keys produced over %s, %d kills (seed %d): %s%n", EVENTS,
                    KEYS, PRODUCE_OVER, KILLS, seed, kills.plan());

            ChaosRun.assertHeld(ChaosRun.run(pipeline, kills, SLICES, PRODUCE_OVER, DRAIN_WAIT), KILLS);
        }
    }
}
