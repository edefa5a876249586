package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kit.sink.RestorePlan;
import dev.cairn.kit.sink.RestorePlan.Verdict;
import dev.cairn.kit.task.KafkaSourceTask;
import dev.cairn.sidecar.hook.SnapshotHook;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rescaling a source → count → sink dataflow of kit tasks against the in-JVM KRaft broker, with the test in the
 * coordinator's place ({@link KitJob#rescale}): the job stops with a savepoint, and the tasks go on with other
 * parallelisms, each subtask restored from the states the coordinator would hand it. Every key's committed counts
 * stay exactly 1, 2, ..., n.
 */
@ExtendWith(KafkaClusterExtension.class)
class RescaleIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int KEYS = 50;

    @TempDir
    Path checkpoints;

    private KafkaCluster kafka;
    private KitJob job;
    private int produced;

    @BeforeEach
    void createJob(KafkaCluster cluster) {
        kafka = cluster;
        job = new KitJob(cluster.bootstrapServers(), "rescale-" + UUID.randomUUID(), checkpoints);
        job.topics().forEach((topic, partitions) -> cluster.createTopics(partitions, topic));
    }

    @AfterEach
    void stopJob() throws Exception {
        job.close();
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

    private void stopAndAwait() throws Exception {
        job.stop(false, Set.of());
        awaitStopped(job.names().toArray(String[]::new));
    }

    private void awaitStopped(String... names) {
        await().atMost(WAIT).untilAsserted(() -> {
            for (String name : names) {
                SnapshotHook hook = job.subtask(name);
                boolean stopped = hook instanceof KafkaSourceTask source ? source.isStopped() && !source.isRunning()
                        : ((KafkaOperatorTask) hook).isStopped() && !((KafkaOperatorTask) hook).isRunning();
                assertThat(stopped).as(name + " stopped").isTrue();
            }
        });
    }

    private void produce(int count) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                String key = Counts.key(produced + i, KEYS);
                producer.send(new ProducerRecord<>(job.input(), Math.floorMod(key.hashCode(), 2), key, "e"));
            }
        }
        produced += count;
    }

    private void awaitCommittedAtLeast(int keys) {
        await().atMost(WAIT).until(() -> {
            job.checkpoint();
            return Counts.committed(kafka.bootstrapServers(), job.results()).size() >= keys;
        });
    }

    private static long total(Map<String, List<Long>> committed) {
        return committed.values().stream().mapToLong(List::size).sum();
    }

    /** Checkpoints until the committed counts reach the expectation, then compares them whole. */
    private void awaitExactlyOnce() {
        Map<String, List<Long>> expected = Counts.expected(produced, KEYS);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
            job.checkpoint();
            return total(Counts.committed(kafka.bootstrapServers(), job.results())) >= produced;
        });
        assertThat(Counts.committed(kafka.bootstrapServers(), job.results())).isEqualTo(expected);
    }
}
