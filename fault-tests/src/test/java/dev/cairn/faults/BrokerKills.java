package dev.cairn.faults;

import dev.cairn.faults.ChaosKills.Kill;
import dev.cairn.faults.ChaosKills.Kind;
import dev.cairn.pipeline.PipelineTopology;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;

/**
 * The Kafka node faults of a chaos run, carried out for {@link ChaosKills}: a random node SIGKILLed
 * ({@link Kind#BROKER}), the node that leads a random partition of the counts topic, which the count subtasks
 * write to, SIGKILLed ({@link Kind#LEADER}: its partitions have no leader until the controller moves them, and
 * batches sent to it meanwhile expire once the workers' {@code delivery.timeout.ms} is short), and a random node
 * stopped cleanly with SIGTERM ({@link Kind#BROKER_RESTART}: it hands its leaderships over before it exits). Each
 * node is started again at once on its log directory; the node is back once the cluster lists it and every
 * partition is on all its replicas again ({@link BrokerCluster#restart}), and the fault has recovered when a
 * checkpoint triggered after that completed.
 */
final class BrokerKills {

    /** Fewest Kafka node faults in a plan, and fewest of them that kill a leader of the counts topic. */
    static final int FEWEST = 4;
    static final int FEWEST_LEADERS = 2;
    private static final Duration SIGTERM_GRACE = Duration.ofSeconds(60);
    private static final Duration LEADER_WAIT = Duration.ofSeconds(60);

    private final ChaosPipeline pipeline;
    private final BrokerCluster brokers;
    private final Random random;

    BrokerKills(ChaosPipeline pipeline, BrokerCluster brokers, Random random) {
        this.pipeline = pipeline;
        this.brokers = brokers;
        this.random = random;
    }

    /**
     * {@code count} faults: a third of them Kafka node faults (at least {@value #FEWEST}), of which half, rounded
     * up, kill a leader of the counts topic (at least {@value #FEWEST_LEADERS}), one is a clean restart and the rest
     * kill a random node; the others are worker and coordinator kills as {@link ChaosKills#plan} makes them; all
     * shuffled.
     *
     * @throws IllegalArgumentException for fewer faults than the node faults and a stop, a coordinator kill and a
     *     kill after a stop need
     */
    static List<Kind> plan(Random random, int count) {
        int nodeFaults = Math.max(FEWEST, (count + 1) / 3);
        if (count - nodeFaults < 4) {
            throw new IllegalArgumentException("a chaos run with Kafka node faults needs at least " + (FEWEST + 4)
                    + " faults (" + FEWEST + " on nodes, a stop, a kill after a stop, a coordinator, another), not "
                    + count);
        }
        int leaders = Math.max(FEWEST_LEADERS, (nodeFaults + 1) / 2);
        List<Kind> kinds = new ArrayList<>(ChaosKills.plan(random, count - nodeFaults));
        kinds.add(Kind.BROKER_RESTART);
        for (int i = 0; i < leaders; i++) {
            kinds.add(Kind.LEADER);
        }
        while (kinds.size() < count) {
            kinds.add(Kind.BROKER);
        }
        Collections.shuffle(kinds, random);
        return kinds;
    }

    /** Carries out one Kafka node fault and waits for its recovery. */
    Kill run(Kind kind) {
        return switch (kind) {
            case BROKER -> {
                int node = random.nextInt(brokers.size());
                yield fault(kind, node, "", () -> kill(node));
            }
            case LEADER -> killLeader();
            case BROKER_RESTART -> {
                int node = random.nextInt(brokers.size());
                yield fault(kind, node, "", () -> brokers.stop(node, SIGTERM_GRACE));
            }
            default -> throw new IllegalArgumentException(kind + " is no Kafka node fault");
        };
    }

    private Kill killLeader() {
        String topic = pipeline.topology.countsTopic();
        int partition = random.nextInt(PipelineTopology.PARTITIONS);
        int node = Awaitility.await(topic + "-" + partition + " has a leader").atMost(LEADER_WAIT)
                .pollInterval(Duration.ofMillis(200)).until(() -> brokers.leaderOf(topic, partition),
                        OptionalInt::isPresent).getAsInt();
        return fault(Kind.LEADER, node, " (leader of " + topic + "-" + partition + ")", () -> kill(node));
    }

    private boolean kill(int node) {
        brokers.kill(node);
        return true;
    }

    /**
     * Stops node {@code node} as {@code stop} does (true when it went down as meant, false when a SIGTERM had to be
     * followed by a SIGKILL), starts it again, and waits for the job to recover.
     */
    private Kill fault(Kind kind, int node, String what, BooleanSupplier stop) {
        long triggered = pipeline.lastTriggered();
        long completed = pipeline.lastCompleted();
        Instant at = Instant.now();
        boolean asMeant = stop.getAsBoolean();
        brokers.restart(node);
        Instant back = Instant.now();
        String target = "node-" + (node + 1) + what
                + (asMeant ? "" : " (still running " + SIGTERM_GRACE + " after the SIGTERM: SIGKILLed)");
        return new Kill(kind, target, at, triggered, completed,
                pipeline.awaitCompletedTriggeredAfter(back, ChaosKills.RECOVERY_WAIT), Optional.empty(),
                Optional.of(back));
    }
}
