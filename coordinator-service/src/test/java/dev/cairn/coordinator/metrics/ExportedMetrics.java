package dev.cairn.coordinator.metrics;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;

import dev.cairn.coordinator.streams.CoordinatorDriver;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.DiscardReason;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.RestorePointRejected;
import dev.cairn.events.StateDiscarded;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What a coordinator's {@code GET /metrics} can show: the scrape of a real registry (the real topology on a
 * TopologyTestDriver, with the coordinator's metrics) after events that give every {@code cairn_} metric a series:
 * a job with a completed checkpoint, a declined one, a restore, a fall-back, discarded state and acks, a rejected
 * start, a dead letter, a store rebuild, a snapshot and the start-up durability check. Kafka Streams' own metrics
 * ({@code kafka_stream_*}) need a running KafkaStreams and are not in it.
 */
final class ExportedMetrics {

    private ExportedMetrics() {}

    /** The scrape, in Prometheus' text format. */
    static String scrape(Path stateDir) {
        try (CoordinatorMetrics metrics = new CoordinatorMetrics();
                CoordinatorDriver cairn = CoordinatorDriver.on(stateDir).metrics(metrics).start()) {
            metrics.watchJobs(cairn.localSource());
            metrics.durabilityWarnings(0);
            cairn.register(spec("orders", task("map", 1)));
            cairn.startTask("orders", "map", 0);
            CheckpointTriggered first = cairn.nextTrigger();
            cairn.ack("orders", first.getCheckpointId(), "map", 0, 100);
            cairn.advance(Duration.ofMillis(100));
            CheckpointTriggered second = cairn.nextTrigger();
            cairn.decline("orders", second.getCheckpointId(), "map", 0);
            cairn.pipeUnreadableRequest("orders");
            DecisionMetrics decisions = metrics.decisions();
            long now = cairn.now();
            decisions.decided("orders", List.of(DecisionMetricsTest.restored("orders", 1),
                    rejectedRestorePoint(), discardedState(), DecisionMetricsTest.rejectedStart("orders"),
                    DecisionMetricsTest.discarded("orders", AckDiscardStatus.LATE)), now);
            decisions.rebuilding(0, 10, 5);
            decisions.rebuilt(0, 15, 20);
            decisions.snapshotWritten(0, 42, now, 5);
            decisions.snapshotFailed(0);
            return new String(metrics.scrape(null).body(), StandardCharsets.UTF_8);
        }
    }

    /** The names of the scrape's samples ({@code cairn_checkpoint_duration_seconds_bucket}, ...). */
    static Set<String> sampleNames(String scrape) {
        return scrape.lines().filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.split("[{ ]", 2)[0])
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * The metrics of the scrape that start with {@code prefix}, as queries name them: a counter with its
     * {@code _total}, a histogram or a summary (a timer) without its {@code _bucket}, {@code _count}, {@code _sum} and
     * {@code _max}.
     */
    static Set<String> metrics(String scrape, String prefix) {
        Set<String> histograms = scrape.lines().filter(line -> line.startsWith("# TYPE ")
                        && (line.endsWith(" histogram") || line.endsWith(" summary")))
                .map(line -> line.split(" ")[2]).collect(Collectors.toSet());
        return sampleNames(scrape).stream().filter(name -> name.startsWith(prefix))
                .map(name -> histograms.stream().filter(h -> name.startsWith(h + "_")).findFirst().orElse(name))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static RestorePointRejected rejectedRestorePoint() {
        return RestorePointRejected.newBuilder().setJobId("orders").setCheckpointId(2)
                .setFallback(DecisionMetricsTest.completed("orders", 1, 1, 2)).setTaskId("map").setSubtaskIndex(0)
                .setAttemptId("a").setMessage("unreadable").setTimestampMs(1_000).build();
    }

    private static StateDiscarded discardedState() {
        return StateDiscarded.newBuilder().setJobId("orders").setCheckpointId(1).setType(CheckpointType.CHECKPOINT)
                .setReason(DiscardReason.SUBSUMED).setMessage("subsumed").setPart(0).setParts(1).setTimestampMs(1_000)
                .setObjects(List.of(DiscardedObject.newBuilder().setTaskId("map").setSubtaskIndex(0)
                        .setLocation("file:///s/1").setSizeBytes(10).build())).build();
    }
}
