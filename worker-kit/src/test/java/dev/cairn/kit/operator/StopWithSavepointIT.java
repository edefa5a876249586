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
import java.util.stream.LongStream;
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
 * Stop-with-savepoint on a source → count → sink dataflow of kit tasks against the in-JVM KRaft broker, with the
 * test in the coordinator's place ({@link KitJob}): the stop's savepoint is the job's restore point, so a sink that
 * crashed before committing it, and a job resumed after the stop, restore it; a stop with drain ends the input.
 */
@ExtendWith(KafkaClusterExtension.class)
class StopWithSavepointIT {

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
        job = new KitJob(cluster.bootstrapServers(), "stop-" + UUID.randomUUID(), checkpoints);
        job.topics().forEach((topic, partitions) -> cluster.createTopics(partitions, topic));
    }

    @AfterEach
    void stopJob() throws Exception {
        job.close();
    }

    @Test
    void shouldCommitTheStopsSavepointOnceWhenASinkCrashedBeforeCommittingIt() throws Exception {
        // given a running job with results committed, and more input in flight
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        produce(1_000);

        // when the job stops with a savepoint that sink-0 never commits (it crashed), and sink-0 restarts
        long savepoint = job.stop(false, Set.of("sink-0"));
        awaitStopped("source-0", "source-1", "count-0", "count-1", "sink-1");
        job.restart("sink-0");

        // then it restores the stop's savepoint and commits what the output lacks: every record read, once
        assertThat(job.restorePlan("sink-0")).map(RestorePlan::verdict).hasValue(Verdict.COMMIT_PENDING);
        assertThat(job.restorePlan("sink-0")).map(RestorePlan::restored).hasValue(savepoint);
        awaitCommittedExactlyOnceUpTo(job.inputRead(savepoint));
    }

    @Test
    void shouldGoOnExactlyOnceFromTheStopsSavepointWhenTheJobResumes() throws Exception {
        // given a job stopped with a savepoint, without drain, while input was in flight
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        produce(1_000);
        long savepoint = job.stop(false, Set.of());
        awaitStopped(job.names().toArray(String[]::new));
        awaitCommittedExactlyOnceUpTo(job.inputRead(savepoint));

        // when the job resumes: every subtask restarts from the savepoint, and more input comes
        job.resume();
        produce(1_000);

        // then no sink went back behind its output, and every record is counted exactly once
        for (String sink : List.of("sink-0", "sink-1")) {
            assertThat(job.restorePlan(sink)).map(RestorePlan::verdict).hasValue(Verdict.ALREADY_COMMITTED);
        }
        awaitExactlyOnce();
    }

    @Test
    void shouldEndTheInputAtADrainedStopAndCommitEverythingBeforeItOnce() throws Exception {
        // given a running job with more input in flight
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        produce(1_000);

        // when it stops with drain
        long savepoint = job.stop(true, Set.of());

        // then every subtask ends, the sources' snapshots say their input ended, and all read is committed once
        awaitStopped(job.names().toArray(String[]::new));
        long read = job.inputRead(savepoint);
        assertThat(job.sourceState(savepoint, 0).ended()).isTrue();
        assertThat(job.sourceState(savepoint, 1).ended()).isTrue();
        awaitCommittedExactlyOnceUpTo(read);

        // and when the job is resumed from the drained savepoint anyway, its sources read nothing more
        job.resume();
        produce(500);
        assertThat(((KafkaSourceTask) job.subtask("source-0")).inputEnded()).isTrue();
        assertThat(job.checkpoint()).isTrue();
        assertThat(job.checkpoint()).isTrue();
        assertThat(job.inputRead(job.latestCompleted())).isEqualTo(read);
        assertThat(job.sourceState(job.latestCompleted(), 0).ended()).isTrue();
        assertCommittedExactlyOnceUpTo(read);
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

    /** Waits for {@code read} results, then checks every key's counts are 1..n, each once, {@code read} in all. */
    private void awaitCommittedExactlyOnceUpTo(long read) {
        await().atMost(WAIT).until(() -> total(Counts.committed(kafka.bootstrapServers(), job.results())) >= read);
        assertCommittedExactlyOnceUpTo(read);
    }

    private void assertCommittedExactlyOnceUpTo(long read) {
        Map<String, List<Long>> committed = Counts.committed(kafka.bootstrapServers(), job.results());
        assertThat(total(committed)).isEqualTo(read);
        committed.forEach((key, counts) -> assertThat(counts).as(key)
                .isEqualTo(LongStream.rangeClosed(1, counts.size()).boxed().toList()));
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
