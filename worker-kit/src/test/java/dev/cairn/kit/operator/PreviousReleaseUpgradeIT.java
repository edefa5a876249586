package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPartition;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.sink.RestorePlan;
import dev.cairn.kit.sink.RestorePlan.Verdict;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.kit.task.KafkaSourceTask;
import dev.cairn.sidecar.hook.SnapshotHook;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
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
 * An upgrade in place from the release before key-group routing on a source → count → sink dataflow of kit tasks
 * against the in-JVM KRaft broker, with the test in the coordinator's place ({@link KitJob}): the job stops with a
 * savepoint whose operator state files the test rewrites as 0.3.0 wrote them (format 1, subtask {@code i} holding
 * the partitions {@code p % 2 == i} of the 4 of its input and every key routed there by {@code murmur2 % 4}), and
 * every subtask of this release resumes from it at the same parallelism: the counts go on exactly once.
 */
@ExtendWith(KafkaClusterExtension.class)
class PreviousReleaseUpgradeIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int KEYS = 50;
    private static final int PARTITIONS = 4;

    @TempDir
    Path checkpoints;

    private KafkaCluster kafka;
    private KitJob job;
    private String prefix;
    private int produced;

    @BeforeEach
    void createJob(KafkaCluster cluster) {
        kafka = cluster;
        prefix = "upgrade-" + UUID.randomUUID();
        job = new KitJob(cluster.bootstrapServers(), prefix, checkpoints);
        job.topics().forEach((topic, partitions) -> cluster.createTopics(partitions, topic));
    }

    @AfterEach
    void stopJob() throws Exception {
        job.close();
    }

    @Test
    void shouldCountExactlyOnceAfterResumingInPlaceFromASavepointOfThePreviousRelease() throws Exception {
        // given a job stopped with a savepoint, without drain, whose operators' files are the previous release's
        job.start();
        produce(1_000);
        awaitCommittedAtLeast(1);
        produce(1_000);
        long savepoint = job.stop(false, Set.of());
        awaitStopped(job.names().toArray(String[]::new));
        Path directory = checkpoints.resolve("savepoint-" + savepoint);
        asPreviousRelease(directory, "count", ".keyed");
        asPreviousRelease(directory, "sink", ".counts");

        // when every subtask of this release resumes from it, and more input comes
        job.resume();
        produce(1_000);

        // then every record is counted exactly once, and no sink went back behind its output
        awaitExactlyOnce();
        for (String sink : List.of("sink-0", "sink-1")) {
            assertThat(job.restorePlan(sink)).map(RestorePlan::verdict).hasValue(Verdict.ALREADY_COMMITTED);
        }
    }

    /**
     * Rewrites the state files of {@code task}'s 2 subtasks in the savepoint as 0.3.0 would have written them: the
     * files of this release read together, then split by that release's ownership, each as format 1, the group
     * objects deleted.
     */
    private void asPreviousRelease(Path directory, String task, String input) throws IOException {
        String taskId = prefix + "-" + task;
        String topic = prefix + input;
        OperatorTaskConfig all = OperatorTaskConfig.of(taskId, 0, 1, 2, topic, kafka.bootstrapServers())
                .withStorage(new FileStorage());
        List<OperatorState> states = new ArrayList<>();
        for (int subtask = 0; subtask < KitJob.PARALLELISM; subtask++) {
            states.add(SnapshotFiles.read(all, file(directory, taskId, subtask), subtask));
        }
        InputPositions positions = OperatorRestore.merge(states.stream().map(OperatorState::positions).toList());
        try (Stream<Path> files = Files.list(directory)) {
            for (Path group : files.filter(path -> path.getFileName().toString().startsWith("operator-" + taskId)
                    && path.getFileName().toString().contains(".kg")).toList()) {
                Files.delete(group);
            }
        }
        for (int subtask = 0; subtask < KitJob.PARALLELISM; subtask++) {
            Map<KeyedState.Key, byte[]> held = new TreeMap<>();
            for (OperatorState state : states) {
                int old = subtask;
                state.entries().forEach((key, value) -> {
                    if (PreviousRelease.readBy(PreviousRelease.partitionOf(key.bytes(), PARTITIONS),
                            KitJob.PARALLELISM, old)) {
                        held.put(key, value);
                    }
                });
            }
            OperatorState state = states.get(subtask);
            Files.write(Path.of(URI.create(file(directory, taskId, subtask))), PreviousRelease.stateFile(
                    taskId, subtask, state.checkpointId(), state.generation(), topic, readBy(positions, subtask),
                    held));
        }
    }

    private static String file(Path directory, String taskId, int subtask) {
        return directory.resolve("operator-" + taskId + "-" + subtask + ".state").toUri().toString();
    }

    /** Of {@code positions}, those of the partitions 0.3.0's subtask {@code subtask} read. */
    private static InputPositions readBy(InputPositions positions, int subtask) {
        Map<InputPartition, Long> restart = new TreeMap<>();
        positions.restartOffsets().forEach((partition, offset) -> {
            if (PreviousRelease.readBy(partition.partition(), KitJob.PARALLELISM, subtask)) {
                restart.put(partition, offset);
            }
        });
        Map<Channel, Long> reflected = new TreeMap<>();
        positions.reflectedThrough().forEach((channel, offset) -> {
            if (PreviousRelease.readBy(channel.partition().partition(), KitJob.PARALLELISM, subtask)) {
                reflected.put(channel, offset);
            }
        });
        return new InputPositions(restart, reflected);
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

    /** Checkpoints until the committed counts reach the expectation, then compares them whole. */
    private void awaitExactlyOnce() {
        Map<String, List<Long>> expected = Counts.expected(produced, KEYS);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
            job.checkpoint();
            return Counts.committed(kafka.bootstrapServers(), job.results()).values().stream()
                    .mapToInt(List::size).sum() >= produced;
        });
        assertThat(Counts.committed(kafka.bootstrapServers(), job.results())).isEqualTo(expected);
    }
}
