package dev.cairn.kit.task;

import static dev.cairn.kit.task.InputRecords.ORIGIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.kit.task.KitOutput.Entry;
import dev.cairn.kit.wire.KitRecord;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.RestorePoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a restored source starts reading when its input changed under it, and which generation it announces: against
 * the in-JVM KRaft broker, subtask 0 of two over a 2-partition input (it reads partition 0), driven through the hook.
 * Retention is played by deleting records up to an offset ({@code Admin.deleteRecords}).
 */
@ExtendWith(KafkaClusterExtension.class)
class KafkaSourceTaskPositionsIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private KafkaCluster kafka;
    private String input;
    private String output;
    private final List<KafkaSourceTask> tasks = new ArrayList<>();

    @BeforeEach
    void createTopics(KafkaCluster cluster) {
        kafka = cluster;
        input = "positions-in-" + UUID.randomUUID();
        output = "positions-out-" + UUID.randomUUID();
        cluster.createTopics(2, input);
        cluster.createTopics(2, output);
    }

    @AfterEach
    void closeTasks() throws InterruptedException {
        for (KafkaSourceTask task : tasks) {
            task.close();
        }
    }

    @Test
    void shouldRefuseToRestoreAPositionThatRetentionDeletedNamingThePartitionAndTheEarliestOffsetLeft()
            throws Exception {
        // given a state at offset 2 of partition 0, whose records before offset 6 were deleted since
        produceToPartitionZero(10);
        deleteBefore(6);
        RestorePoint point = stateAt(2L);

        // when / then the restore fails, saying which position is gone and what is left, and nothing is read
        KafkaSourceTask task = task(Map.of());
        assertThatThrownBy(() -> task.restore(Optional.of(point), new AttemptNumber("a", 3)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("restored position 2 of " + input + "-0 no longer exists")
                .hasMessageContaining("the earliest offset left is 6")
                .hasMessageContaining("auto.offset.reset=earliest");
        assertThat(task.isRunning()).isFalse();
    }

    @Test
    void shouldReadOnFromTheEarliestOffsetLeftWhenTheSettingsChooseToSkip() throws Exception {
        // given the same deleted position, and a task whose client settings choose auto.offset.reset=earliest
        produceToPartitionZero(10);
        deleteBefore(6);
        KafkaSourceTask task = task(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));

        // when it restores
        task.restore(Optional.of(stateAt(2L)), new AttemptNumber("a", 3));

        // then it reads from offset 6 on: what retention deleted is skipped, nothing after it
        await().atMost(WAIT).untilAsserted(() -> assertThat(dataValues()).containsExactly("0:6", "0:7", "0:8", "0:9"));
    }

    @Test
    void shouldAnnounceAGreaterGenerationForALaterAttemptWhateverTheRestoredStateHolds() throws Exception {
        // given a state written by a generation taken from a wall clock ahead of every later host's
        produceToPartitionZero(2);
        long aheadOfEveryClock = 4_000_000_000_000L;
        RestorePoint point = stateAt(0L, aheadOfEveryClock);

        // when attempt 7 restores it, then attempt 9 (on a host whose clock is behind: no clock is read)
        KafkaSourceTask seventh = task(Map.of());
        seventh.restore(Optional.of(point), new AttemptNumber("a", 7));
        seventh.close();
        KafkaSourceTask ninth = task(Map.of());
        ninth.restore(Optional.of(point), new AttemptNumber("b", 9));

        // then each announces a generation above the restored one, the later attempt's above the earlier's
        assertThat(seventh.generation()).isGreaterThan(aheadOfEveryClock);
        assertThat(ninth.generation()).isGreaterThan(seventh.generation());
        await().atMost(WAIT).untilAsserted(() -> {
            for (List<Entry> partition : KitOutput.read(kafka.bootstrapServers(), output).values()) {
                assertThat(partition).filteredOn(e -> e.kind() instanceof KitRecord.Resume).map(Entry::generation)
                        .containsExactly(seventh.generation(), ninth.generation());
            }
        });
    }

    @Test
    void shouldStartFreshOnEveryPartitionItReadsThoughNoResetPolicyIsSet() throws Exception {
        // given an input of four partitions, of which subtask 0 reads 0 and 2, each holding a record
        String wide = "positions-wide-" + UUID.randomUUID();
        kafka.createTopics(4, wide);
        for (int partition = 0; partition < 4; partition++) {
            InputRecords.produce(kafka.bootstrapServers(), wide, partition, 1);
        }
        KafkaSourceTask task = new KafkaSourceTask(SourceTaskConfig.of("orders-src", 0, 2, wide, output,
                kafka.bootstrapServers()), ORIGIN);
        tasks.add(task);

        // when it starts fresh (auto.offset.reset=none: every partition is sought before any position is read)
        task.restore(Optional.empty(), new AttemptNumber("a", 1));

        // then it reads both of its partitions from the beginning
        await().atMost(WAIT).untilAsserted(() -> assertThat(dataValues()).containsExactly("0:0", "2:0"));
    }

    private List<String> dataValues() {
        List<String> values = new ArrayList<>();
        KitOutput.read(kafka.bootstrapServers(), output).values().forEach(partition -> partition.stream()
                .filter(e -> e.kind() instanceof KitRecord.Data).map(Entry::value).forEach(values::add));
        values.sort(null);
        return values;
    }

    private RestorePoint stateAt(long position) throws Exception {
        return stateAt(position, 1);
    }

    private RestorePoint stateAt(long position, long generation) throws Exception {
        Path file = dir.resolve("source-orders-src-0-" + position + ".state");
        long size = SourceStateCodec.write(new FileStorage(), file.toString(), new SourceState("orders-src", 0, 1,
                generation, input, Map.of(0, position)));
        return new RestorePoint(1, file.toString(), size);
    }

    private KafkaSourceTask task(Map<String, Object> settings) {
        Map<String, Object> client = new HashMap<>(settings);
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        KafkaSourceTask task = new KafkaSourceTask(new SourceTaskConfig("orders-src", 0, 2, input, output, client,
                SourceTaskConfig.StartFrom.EARLIEST, false, Duration.ofMillis(100)), ORIGIN);
        tasks.add(task);
        return task;
    }

    private void produceToPartitionZero(int count) {
        InputRecords.produce(kafka.bootstrapServers(), input, 0, count);
    }

    private void deleteBefore(long offset) throws Exception {
        try (Admin admin = kafka.createAdmin()) {
            admin.deleteRecords(Map.of(new TopicPartition(input, 0), RecordsToDelete.beforeOffset(offset))).all()
                    .get();
        }
    }
}
