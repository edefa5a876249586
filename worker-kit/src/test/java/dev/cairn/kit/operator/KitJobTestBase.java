package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kit.task.KafkaSourceTask;
import dev.cairn.sidecar.hook.SnapshotHook;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.LongStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the ITs of a {@link KitJob} on the in-JVM KRaft broker share: a new job per test, its topics created and its
 * subtasks closed after it; the input they produce ({@link #KEYS} keys, each event counted once by the job); and the
 * waits on the job's subtasks and on the counts its sink committed.
 */
@ExtendWith(KafkaClusterExtension.class)
abstract class KitJobTestBase {

    /** How long a test waits for the job to stop, to commit or to count. */
    static final Duration WAIT = Duration.ofSeconds(90);
    /** The keys the produced events go round. */
    static final int KEYS = 50;

    @TempDir
    Path checkpoints;

    /** The broker the job runs on. */
    KafkaCluster kafka;
    /** The test's job. */
    KitJob job;
    /** The prefix of the job's task ids and topics: the IT's name and a random id. */
    String prefix;

    private final String name;
    private int produced;

    /** ITs whose jobs' topics and task ids start with {@code name}. */
    KitJobTestBase(String name) {
        this.name = name;
    }

    @BeforeEach
    void createJob(KafkaCluster cluster) {
        kafka = cluster;
        prefix = name + "-" + UUID.randomUUID();
        job = new KitJob(cluster.bootstrapServers(), prefix, checkpoints);
        job.topics().forEach((topic, partitions) -> cluster.createTopics(partitions, topic));
    }

    @AfterEach
    void stopJob() throws Exception {
        job.close();
    }

    /** Produces {@code count} more events to the job's input, each key's on the partition its hash picks. */
    void produce(int count) {
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

    /** Stops the job with a savepoint, without drain, and waits until every subtask stopped; answers its id. */
    long stopAndAwait() throws Exception {
        long savepoint = job.stop(false, Set.of());
        awaitStopped(job.names().toArray(String[]::new));
        return savepoint;
    }

    /** Waits until each of the subtasks {@code names} stopped and is no longer running. */
    void awaitStopped(String... names) {
        await().atMost(WAIT).untilAsserted(() -> {
            for (String name : names) {
                SnapshotHook hook = job.subtask(name);
                boolean stopped = hook instanceof KafkaSourceTask source ? source.isStopped() && !source.isRunning()
                        : ((KafkaOperatorTask) hook).isStopped() && !((KafkaOperatorTask) hook).isRunning();
                assertThat(stopped).as(name + " stopped").isTrue();
            }
        });
    }

    /** Checkpoints until the sink committed counts of at least {@code keys} keys. */
    void awaitCommittedAtLeast(int keys) {
        await().atMost(WAIT).until(() -> {
            job.checkpoint();
            return committed().size() >= keys;
        });
    }

    /** Checkpoints until the committed counts reach the expectation, then compares them whole. */
    void awaitExactlyOnce() {
        Map<String, List<Long>> expected = Counts.expected(produced, KEYS);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
            job.checkpoint();
            return total(committed()) >= produced;
        });
        assertThat(committed()).isEqualTo(expected);
    }

    /** Waits for {@code read} results, then checks every key's counts are 1..n, each once, {@code read} in all. */
    void awaitCommittedExactlyOnceUpTo(long read) {
        await().atMost(WAIT).until(() -> total(committed()) >= read);
        assertCommittedExactlyOnceUpTo(read);
    }

    /** Checks the committed counts are {@code read} in all, and every key's are 1..n, each once. */
    void assertCommittedExactlyOnceUpTo(long read) {
        Map<String, List<Long>> committed = committed();
        assertThat(total(committed)).isEqualTo(read);
        committed.forEach((key, counts) -> assertThat(counts).as(key)
                .isEqualTo(LongStream.rangeClosed(1, counts.size()).boxed().toList()));
    }

    private Map<String, List<Long>> committed() {
        return Counts.committed(kafka.bootstrapServers(), job.results());
    }

    private static long total(Map<String, List<Long>> committed) {
        return committed.values().stream().mapToLong(List::size).sum();
    }
}
