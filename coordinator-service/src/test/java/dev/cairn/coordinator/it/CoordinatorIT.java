package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.client.audit.JournalReplay;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobStatus;
import dev.cairn.events.PeriodicTriggerStopped;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The coordinator end to end on a real broker: the test produces what users and sidecars would. */
@ExtendWith(KafkaClusterExtension.class)
class CoordinatorIT {

    private static final List<String> TASKS = List.of("source", "map", "window", "sink");

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().create();

    @Test
    void shouldCompleteCheckpointsPeriodicallyWhenEveryTaskAcks() {
        String job = "periodic-" + UUID.randomUUID();
        startJob(job, 300, 10_000);

        for (int round = 0; round < 3; round++) {
            CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getJobId().equals(job));
            TASKS.forEach(task -> cairn.ack(job, triggered.getCheckpointId(), task, 0, attempt(job, task)));
            CheckpointCompleted completed = cairn.awaitNextControl(CheckpointCompleted.class,
                    c -> c.getJobId().equals(job) && c.getCheckpointId() == triggered.getCheckpointId());
            assertThat(completed.getSubtaskCount()).isEqualTo(TASKS.size());
            assertThat(completed.getTotalSizeBytes()).isEqualTo(TASKS.size() * 1_000L);
            assertThat(completed.getCheckpointId()).isEqualTo(round + 1L);
        }
    }

    @Test
    void shouldAbortADeclinedCheckpointAndCompleteTheNext() {
        String job = "decline-" + UUID.randomUUID();
        startJob(job, 300, 10_000);

        CheckpointTriggered first = cairn.awaitNextControl(CheckpointTriggered.class, t -> t.getJobId().equals(job));
        cairn.ack(job, first.getCheckpointId(), "source", 0, attempt(job, "source"));
        cairn.decline(job, first.getCheckpointId(), "window", 0, attempt(job, "window"));
        CheckpointAborted aborted = cairn.awaitNextControl(CheckpointAborted.class, a -> a.getJobId().equals(job));
        assertThat(aborted.getCheckpointId()).isEqualTo(first.getCheckpointId());
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);

        CheckpointTriggered second = cairn.awaitNextControl(CheckpointTriggered.class, t -> t.getJobId().equals(job));
        TASKS.forEach(task -> cairn.ack(job, second.getCheckpointId(), task, 0, attempt(job, task)));
        CheckpointCompleted completed = cairn.awaitNextControl(CheckpointCompleted.class,
                c -> c.getJobId().equals(job));
        assertThat(completed.getCheckpointId()).isEqualTo(second.getCheckpointId())
                .isGreaterThan(first.getCheckpointId());
    }

    @Test
    void shouldExpireACheckpointThatATaskNeverAcknowledges() {
        String job = "silent-" + UUID.randomUUID();
        startJob(job, 5_000, 800);

        CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job));
        TASKS.stream().filter(task -> !task.equals("sink"))
                .forEach(task -> cairn.ack(job, triggered.getCheckpointId(), task, 0, attempt(job, task)));

        CheckpointAborted aborted = cairn.awaitNextControl(CheckpointAborted.class, a -> a.getJobId().equals(job));
        assertThat(aborted.getCheckpointId()).isEqualTo(triggered.getCheckpointId());
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
        assertThat(aborted.getTimestampMs() - triggered.getTimestampMs()).isGreaterThanOrEqualTo(800L);
    }

    @Test
    void shouldDeadLetterUnreadableRecordsAndKeepCoordinating(KafkaCluster kafka) {
        String job = "dlq-" + UUID.randomUUID();
        cairn.sendRawRequest(job, "{\"jobId\": \"not avro\"}".getBytes(StandardCharsets.UTF_8));
        startJob(job, 300, 10_000);

        CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job));
        assertThat(triggered.getCheckpointId()).isEqualTo(1L);
        ConsumerRecord<String, byte[]> dead = readDeadLetter(kafka, job);
        assertThat(new String(dead.value(), StandardCharsets.UTF_8)).contains("not avro");
        assertThat(header(dead, DeadLetterQueueHandler.REASON)).isEqualTo("NOT_SINGLE_OBJECT_ENCODED");
        assertThat(header(dead, DeadLetterQueueHandler.SOURCE_TOPIC)).isEqualTo(cairn.topics().requests());
        assertThat(header(dead, DeadLetterQueueHandler.SOURCE_OFFSET)).isNotBlank();
    }

    @Test
    void shouldJournalARejectionForAnAckOfAnUnknownJob() {
        String job = "unknown-" + UUID.randomUUID();
        cairn.ack(job, 1, "source", 0, "nobody");

        CommandRejected rejected = cairn.awaitNextJournal(CommandRejected.class, r -> r.getJobId().equals(job));
        assertThat(rejected.getReason()).contains("unknown job");
    }

    @Test
    void shouldRebuildTheLiveStateByReplayingTheJournal() {
        String job = "audit-" + UUID.randomUUID();
        startJob(job, 200, 10_000);
        for (int round = 0; round < 2; round++) {
            CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getJobId().equals(job));
            TASKS.forEach(task -> cairn.ack(job, triggered.getCheckpointId(), task, 0, attempt(job, task)));
            cairn.awaitNextControl(CheckpointCompleted.class, c -> c.getJobId().equals(job));
        }
        cairn.changeStatus(job, JobStatus.SUSPENDED);
        cairn.awaitNextJournal(PeriodicTriggerStopped.class, s -> s.getJobId().equals(job));

        JournalReplay.Result replayed = new JournalReplay(cairn.bootstrapServers(), Map.of(),
                CoordinatorSettings.DEFAULTS)
                .replay(cairn.topics().journal(), Duration.ofSeconds(30));

        JobState live = cairn.liveJob(job);
        assertThat(live.getCounts().getCompleted()).isGreaterThanOrEqualTo(2L);
        assertThat(replayed.state().job(job)).contains(live);
        assertThat(replayed.events()).isPositive();
    }

    private static void startJob(String job, long intervalMs, long timeoutMs) {
        cairn.register(Events.job(job, intervalMs, timeoutMs, TASKS.toArray(String[]::new)));
        TASKS.forEach(task -> cairn.startTask(job, task, 0, attempt(job, task)));
    }

    private static String attempt(String job, String task) {
        return job + "/" + task + "/1";
    }

    private ConsumerRecord<String, byte[]> readDeadLetter(KafkaCluster kafka, String key) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(cairn.topics().dlq()));
            java.util.List<ConsumerRecord<String, byte[]>> found = new java.util.ArrayList<>();
            Awaitility.await().atMost(CoordinatorTestBed.WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> {
                    if (key.equals(r.key())) {
                        found.add(r);
                    }
                });
                return !found.isEmpty();
            });
            return found.get(0);
        }
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
