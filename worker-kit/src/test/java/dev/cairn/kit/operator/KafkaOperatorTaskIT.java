package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.RestorePoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * A source → count → sink dataflow of kit tasks against the in-JVM KRaft broker, with the test standing in for the
 * coordinator and the sidecars ({@link KitJob}): the committed counts are exactly 1..n per key, also when subtasks
 * restart from the latest completed checkpoint while the others go on.
 */
@ExtendWith(KafkaClusterExtension.class)
class KafkaOperatorTaskIT {

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
        job = new KitJob(cluster.bootstrapServers(), "kit-" + UUID.randomUUID(), checkpoints);
        job.topics().forEach((topic, partitions) -> cluster.createTopics(partitions, topic));
    }

    @AfterEach
    void stopJob() throws Exception {
        job.close();
    }

    @Test
    void shouldCommitEveryKeysCountsExactlyOnce() throws Exception {
        job.start();
        produce(2_000);

        awaitExactlyOnce();
    }

    @Test
    void shouldCountExactlyOnceWhenTheSourceRestartsFromTheLatestCompletedCheckpoint() throws Exception {
        job.start();
        produce(1_000);
        assertThat(job.checkpoint()).isTrue();
        produce(1_000);
        awaitCommittedAtLeast(1);

        job.restart("source-0");
        produce(1_000);

        awaitExactlyOnce();
        assertThat(rollbacks("count-0") + rollbacks("count-1")).isPositive();
    }

    @Test
    void shouldCountExactlyOnceWhenAnOperatorRestartsAndItsSinkRollsBack() throws Exception {
        job.start();
        produce(1_000);
        assertThat(job.checkpoint()).isTrue();
        produce(1_000);
        awaitCommittedAtLeast(1);

        job.restart("count-1");
        produce(1_000);

        awaitExactlyOnce();
        assertThat(rollbacks("sink-0") + rollbacks("sink-1")).isPositive();
    }

    @Test
    void shouldCountExactlyOnceWhenEverySubtaskRestartsTogether() throws Exception {
        job.start();
        produce(1_000);
        assertThat(job.checkpoint()).isTrue();
        produce(1_000);

        for (String name : job.names()) {
            job.restart(name);
        }
        produce(1_000);

        awaitExactlyOnce();
    }

    @Test
    void shouldStopAnOperatorThatFindsACheckpointCompletedWithoutIt() throws Exception {
        job.start();
        produce(500);
        assertThat(job.checkpoint()).isTrue();
        KafkaOperatorTask behind = (KafkaOperatorTask) job.start("count-0",
                Optional.of(new RestorePoint(job.latestCompleted(), checkpoints.resolve("chk-" + job.latestCompleted())
                        .resolve("operator-" + jobPrefix() + "-count-0.state").toUri().toString(), 0)));

        behind.notifyComplete(CheckpointCompletion.of(job.latestCompleted() + 1, -1));

        await().atMost(WAIT).until(() -> !behind.isRunning());
        assertThat(behind.failure()).hasValueSatisfying(failure -> assertThat(failure)
                .hasMessageContaining("is behind").hasMessageContaining("checkpoint " + (job.latestCompleted() + 1)));
    }

    @Test
    void shouldDeadLetterARecordWithoutKitHeadersAndCountTheRestExactlyOnce() throws Exception {
        job.start();
        produce(500);
        String keyed = jobPrefix() + ".keyed";
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(keyed, 0, "k1", "no headers")).get();
        }
        produce(500);

        awaitExactlyOnce();
        await().atMost(WAIT).untilAsserted(() -> assertThat(
                DeadLetterReader.reasons(kafka.bootstrapServers(), keyed + ".dead-letters"))
                .containsExactly("no cairn.kit.from header"));
    }

    private String jobPrefix() {
        return job.input().substring(0, job.input().length() - ".events".length());
    }

    private int rollbacks(String name) {
        return ((KafkaOperatorTask) job.subtask(name)).rollbacks();
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

    /** Checkpoints until the committed counts reach the expectation, then compares them whole. */
    private void awaitExactlyOnce() {
        Map<String, List<Long>> expected = Counts.expected(produced, KEYS);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
            job.checkpoint();
            Map<String, List<Long>> committed = Counts.committed(kafka.bootstrapServers(), job.results());
            return committed.values().stream().mapToInt(List::size).sum() >= produced;
        });
        assertThat(Counts.committed(kafka.bootstrapServers(), job.results())).isEqualTo(expected);
    }
}
