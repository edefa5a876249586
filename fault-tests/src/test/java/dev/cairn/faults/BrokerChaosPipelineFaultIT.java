package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.faults.ChaosKills.Kind;
import dev.cairn.pipeline.InputEvents;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Exactly once on a real dataflow while Kafka nodes die: the sample pipeline of {@link PipelineChaosFaultIT} (six
 * worker processes, each with its sidecar embedded, two coordinator processes) on a cluster of three Kafka node
 * processes, every topic with three replicas and {@code min.insync.replicas} 2 (asserted on the pipeline's topics
 * before the run), while {@code cairn.broker-chaos.faults} faults (default 12) hit it one after another
 * ({@link ChaosKills#withBrokerFaults}): a third of them, at least four, on Kafka nodes ({@link BrokerKills}: the
 * leader of a partition of the counts topic SIGKILLed, at least twice; a random node SIGKILLed; a node stopped with
 * SIGTERM; each started again at once), the others the worker and coordinator kills of {@link ChaosKills}. The
 * workers' tasks, not their sidecars, run with a producer {@code delivery.timeout.ms} of 3 s and a
 * {@code request.timeout.ms} of 1.5 s, so that batches sent to a partition whose leader is down expire, as they
 * would with short timeouts in production; their sidecars keep their long timeout and ride the restarts out.
 *
 * <p>The input, {@code cairn.broker-chaos.events} events (default 200,000) over 1,000 keys, is produced in 100
 * slices over {@code cairn.broker-chaos.produce.seconds} (default 120); {@code cairn.broker-chaos.seed} replays a
 * plan. The recovery of a node fault runs from the fault until a checkpoint triggered after the node was back
 * (answering, and every partition on all its replicas) completed. At the end, as in {@link PipelineChaosFaultIT}, a
 * stop-with-savepoint with drain must complete, every worker exit 0, and the results, read read_committed, count
 * every key 1, 2, ..., n exactly once; the report also counts the workers that failed on an expired batch.
 * Logs: {@code target/faults/broker-chaos-*} (the nodes' under {@code kafka/node-N}, the workers' under
 * {@code pipeline/logs}).
 */
class BrokerChaosPipelineFaultIT {

    private static final int NODES = 3;
    private static final int EVENTS = Integer.getInteger("cairn.broker-chaos.events", 200_000);
    private static final int KEYS = 1_000;
    private static final int FAULTS = Integer.getInteger("cairn.broker-chaos.faults", 12);
    private static final Duration PRODUCE_OVER = Duration.ofSeconds(Integer.getInteger(
            "cairn.broker-chaos.produce.seconds", 120));
    private static final int SLICES = 100;
    private static final Duration DRAIN_WAIT = Duration.ofMinutes(5);
    /** Short enough that a batch to a partition without a leader expires before the controller moves it. */
    private static final Map<String, String> TASK_KAFKA = Map.of("delivery.timeout.ms", "3000",
            "request.timeout.ms", "1500");

    @Test
    void shouldCountEveryEventExactlyOnceWhenKafkaNodesLeadersWorkersAndCoordinatorsAreKilled() {
        long seed = Long.getLong("cairn.broker-chaos.seed", System.nanoTime());
        try (FaultCluster cluster = FaultCluster.start("broker-chaos", NODES, 2, 0);
                ChaosPipeline pipeline = ChaosPipeline.start(cluster, "broker-chaos-pipeline",
                        new InputEvents(EVENTS, KEYS), TASK_KAFKA)) {
            Map<String, BrokerCluster.Replication> replication = cluster.brokers.replication(
                    pipeline.topology.topics());
            System.out.println("[chaos] the pipeline's topics: " + replication);
            assertThat(replication).hasSize(pipeline.topology.topics().size());
            assertThat(replication.values()).as("three replicas and min.insync.replicas 2 on every topic")
                    .containsOnly(new BrokerCluster.Replication(NODES, NODES - 1));

            ChaosKills kills = ChaosKills.withBrokerFaults(pipeline, cluster, seed, FAULTS);
            System.out.printf("[chaos] %,d events over %d keys produced over %s on %d Kafka nodes, task clients %s, "
                    + "%d faults (seed %d): %s%n", EVENTS, KEYS, PRODUCE_OVER, NODES, TASK_KAFKA, FAULTS, seed,
                    kills.plan());
            assertThat(kills.plan()).filteredOn(Kind::isBrokerFault).hasSizeGreaterThanOrEqualTo(BrokerKills.FEWEST);
            assertThat(kills.plan()).filteredOn(kind -> kind == Kind.LEADER)
                    .hasSizeGreaterThanOrEqualTo(BrokerKills.FEWEST_LEADERS);

            ChaosRun.assertHeld(ChaosRun.run(pipeline, kills, SLICES, PRODUCE_OVER, DRAIN_WAIT), FAULTS);
        }
    }
}
