package dev.cairn.kit.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kit.sink.RestorePlan.Verdict;
import dev.cairn.sidecar.hook.RestorePoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-ahead sink against a real broker (the in-JVM KRaft broker): what read_committed readers of the output
 * see across checkpoints, crashes and zombies. A crash is simulated by leaving a sink object open and starting a
 * new incarnation of the same subtask beside it.
 */
@ExtendWith(KafkaClusterExtension.class)
class WriteAheadSinkIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private KafkaCluster kafka;
    private String output;
    private final List<WriteAheadSink<String, String>> sinks = new ArrayList<>();

    @BeforeEach
    void createTopics(KafkaCluster cluster) throws InterruptedException, ExecutionException {
        kafka = cluster;
        output = "sink-out-" + UUID.randomUUID();
        try (Admin admin = cluster.createAdmin()) {
            admin.createTopics(List.of(new NewTopic(output, 3, (short) 1),
                    new NewTopic(output + ".commits", 1, (short) 1)
                            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT))))
                    .all().get();
        }
        cluster.createTopics(3, output);
        cluster.createTopics(1, output + ".commits");
    }

    @AfterEach
    void closeSinks() {
        sinks.forEach(WriteAheadSink::close);
    }

    private WriteAheadSink<String, String> sink(int subtask) {
        WriteAheadSink<String, String> sink = new WriteAheadSink<>(
                WriteAheadSinkConfig.of("orders", subtask, output, kafka.bootstrapServers()),
                new StringSerializer(), new StringSerializer());
        sinks.add(sink);
        return sink;
    }

    private WriteAheadSink<String, String> freshSink() throws IOException {
        WriteAheadSink<String, String> sink = sink(0);
        sink.restore(Optional.empty());
        return sink;
    }

    private String location(long checkpointId) {
        return dir.resolve("chk-" + checkpointId).toUri().toString();
    }

    private static RestorePoint point(long checkpointId, SinkSnapshot snapshot) {
        return new RestorePoint(checkpointId, snapshot.location(), snapshot.sizeBytes());
    }

    private static void send(WriteAheadSink<String, String> sink, String... values) {
        for (String value : values) {
            sink.send("key-" + value, value);
        }
    }

    private OutputReader reader() {
        return new OutputReader(kafka.bootstrapServers());
    }

    @Test
    void shouldShowRecordsToReadCommittedReadersOnlyOnceTheirCheckpointCompleted() throws IOException {
        // given
        var sink = freshSink();
        send(sink, "a", "b");
        sink.snapshot(1, location(1));
        send(sink, "c");

        // when the snapshot is taken but its checkpoint has not completed, nothing is in the topic
        OutputReader reader = reader();
        assertThat(reader.values(output, false)).isEmpty();
        assertThat(reader.values(output, true)).isEmpty();

        // when it completes
        sink.notifyComplete(1);

        // then the epoch's records, and only those, are visible, with the commit marker
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(reader.values(output, true)).containsExactlyInAnyOrder("a", "b"));
        assertThat(reader.markers(output)).containsEntry("orders-0", "1");
    }

    @Test
    void shouldCommitEveryRecordOfTheRestoredSnapshotExactlyOnceAfterACrashBeforeTheCommit() throws IOException {
        // given a sink that took snapshots 1 and 2 and crashed before checkpoint 2's completion reached it
        var crashed = freshSink();
        send(crashed, "a", "b");
        crashed.snapshot(1, location(1));
        send(crashed, "c");
        SinkSnapshot two = crashed.snapshot(2, location(2));
        send(crashed, "after-2");

        // when a new incarnation restores checkpoint 2
        var restored = sink(0);
        RestorePlan plan = restored.restore(Optional.of(point(2, two)));

        // then every record of epochs 1 and 2 is in the output once, and nothing sent after snapshot 2
        assertThat(plan.verdict()).isEqualTo(Verdict.COMMIT_PENDING);
        assertThat(plan.markerBefore()).isEqualTo(-1);
        OutputReader reader = reader();
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(reader.values(output, true)).containsExactlyInAnyOrder("a", "b", "c"));
        assertThat(reader.markers(output)).containsEntry("orders-0", "2");
    }

    @Test
    void shouldLeaveOutTheEpochsAnEarlierCompletionCommittedWhenRestoring() throws IOException {
        // given snapshot 2 was taken before checkpoint 1's completion committed epoch 1, then the sink crashed
        var crashed = freshSink();
        send(crashed, "a");
        crashed.snapshot(1, location(1));
        send(crashed, "b");
        SinkSnapshot two = crashed.snapshot(2, location(2));
        crashed.notifyComplete(1);

        // when a new incarnation restores checkpoint 2
        var restored = sink(0);
        RestorePlan plan = restored.restore(Optional.of(point(2, two)));

        // then epoch 1 is not written again
        assertThat(plan.markerBefore()).isEqualTo(1);
        OutputReader reader = reader();
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(reader.values(output, true)).containsExactlyInAnyOrder("a", "b"));
        assertThat(reader.markers(output)).containsEntry("orders-0", "2");
    }

    @Test
    void shouldWriteNothingAgainWhenRestoringACheckpointAlreadyCommitted() throws IOException {
        // given a sink that committed checkpoint 2 and crashed
        var crashed = freshSink();
        send(crashed, "a");
        crashed.snapshot(1, location(1));
        send(crashed, "b");
        SinkSnapshot two = crashed.snapshot(2, location(2));
        crashed.notifyComplete(2);

        // when a new incarnation restores checkpoint 2 and goes on
        var restored = sink(0);
        RestorePlan plan = restored.restore(Optional.of(point(2, two)));
        send(restored, "c");
        restored.snapshot(3, location(3));
        restored.notifyComplete(3);

        // then nothing was written by the restore, and the new epoch follows
        assertThat(plan.verdict()).isEqualTo(Verdict.ALREADY_COMMITTED);
        assertThat(plan.writes()).isFalse();
        OutputReader reader = reader();
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(reader.values(output, true)).containsExactlyInAnyOrder("a", "b", "c"));
        assertThat(reader.markers(output)).containsEntry("orders-0", "3");
    }

    @Test
    void shouldStopAZombieWithAClearErrorOnceANewIncarnationTookOver() throws IOException {
        // given a sink that took snapshot 1 and a new incarnation that restored it (and committed epoch 1)
        var zombie = freshSink();
        send(zombie, "a");
        SinkSnapshot one = zombie.snapshot(1, location(1));
        var successor = sink(0);
        successor.restore(Optional.of(point(1, one)));

        // when the zombie goes on and hears that checkpoint 2 completed
        send(zombie, "zombie");
        zombie.snapshot(2, location(2));

        // then it cannot commit, and stops with an error that says why
        assertThatThrownBy(() -> zombie.notifyComplete(2))
                .isInstanceOf(SinkFailedException.class)
                .hasMessageContaining("was fenced")
                .satisfies(error -> assertThat(((SinkFailedException) error).fenced()).isTrue());
        assertThatThrownBy(() -> zombie.send("late", "late")).isInstanceOf(SinkFailedException.class)
                .hasMessageContaining("a newer incarnation");
        OutputReader reader = reader();
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(reader.values(output, true)).containsExactly("a"));
        assertThat(reader.values(output, false)).doesNotContain("zombie");
        assertThat(reader.markers(output)).containsEntry("orders-0", "1");
    }

    @Test
    void shouldKeepTheSubtasksOfASinkApart() throws IOException {
        // given two subtasks of the same sink
        var first = freshSink();
        var second = sink(1);
        second.restore(Optional.empty());
        send(first, "first");
        send(second, "second");
        first.snapshot(1, location(1));
        SinkSnapshot secondsOne = second.snapshot(1, location(1));

        // when only the first commits, and the second restores after a crash
        first.notifyComplete(1);
        sink(1).restore(Optional.of(point(1, secondsOne)));

        // then each subtask's records are there once, with its own marker
        OutputReader reader = reader();
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(reader.values(output, true)).containsExactlyInAnyOrder("first", "second"));
        assertThat(reader.markers(output)).containsEntry("orders-0", "1").containsEntry("orders-1", "1");
    }

    @Test
    void shouldWaitForAnotherSubtasksOpenTransactionBeforeTrustingTheMarker() throws Exception {
        // given another writer's transaction is open on the commits topic, and checkpoint 1 committed after it began
        var crashed = freshSink();
        try (KafkaProducer<String, String> other = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "orders-other-" + UUID.randomUUID()),
                new StringSerializer(), new StringSerializer())) {
            other.initTransactions();
            other.beginTransaction();
            other.send(new ProducerRecord<>(output + ".commits", "orders-9", "7"));
            other.flush();
            send(crashed, "a");
            SinkSnapshot one = crashed.snapshot(1, location(1));
            crashed.notifyComplete(1);

            // when a new incarnation restores checkpoint 1
            var restored = sink(0);
            CompletableFuture<RestorePlan> plan = CompletableFuture.supplyAsync(() -> {
                try {
                    return restored.restore(Optional.of(point(1, one)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });

            // then it reads the marker only once the other transaction ended, and writes nothing again
            await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> !plan.isDone());
            other.commitTransaction();
            assertThat(plan.get(WAIT.toSeconds(), TimeUnit.SECONDS).verdict()).isEqualTo(Verdict.ALREADY_COMMITTED);
        }
        OutputReader reader = reader();
        assertThat(reader.values(output, true)).containsExactly("a");
    }

    @Test
    void shouldRefuseToStartWithAClearErrorWhenTheCommitsTopicIsMissing() {
        // given
        var sink = new WriteAheadSink<>(WriteAheadSinkConfig.of("orders", 0, "no-such-" + UUID.randomUUID(),
                kafka.bootstrapServers()), new StringSerializer(), new StringSerializer());
        sinks.add(sink);

        // when / then
        assertThatThrownBy(() -> sink.restore(Optional.empty())).isInstanceOf(SinkFailedException.class)
                .hasMessageContaining(".commits does not exist; create it (cleanup.policy=compact)");
        assertThatThrownBy(() -> sink.send("a", "a")).isInstanceOf(SinkFailedException.class);
    }
}
