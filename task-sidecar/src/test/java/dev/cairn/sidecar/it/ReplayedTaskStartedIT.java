package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.TaskStartRejected;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.kafka.test.TopicTail;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.kafka.KafkaSidecar;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Attempts are ordered by their start: a genuine, signed {@code TaskStarted} of an earlier attempt produced again to
 * {@code cairn.acks} (a replay, or a record reordered) must not replace the live attempt, and a restart on a host
 * whose clock is behind must still take over at once. Signed records, as deployed.
 */
class ReplayedTaskStartedIT extends SidecarTestBase {

    @Test
    void shouldKeepCompletingCheckpointsWithTheLiveAttemptWhenAnOldAttemptsTaskStartedIsReplayed() throws Exception {
        // given a sidecar that checkpointed, then its subtask restarted as a new attempt that checkpoints too
        String job = CoordinatorTestBed.uniqueJobId("replay-start");
        bed.register(Events.job(job, 300, 10_000, "source"));
        Sidecar first = sidecars.start(job, "source", 0, RecordingHook.acking());
        String old = first.attemptId();
        awaitCompletionAckedBy(job, old, 0);
        ConsumerRecord<String, byte[]> oldStart = genuineStart(job, old);
        first.close();
        String live = sidecars.start(job, "source", 0, RecordingHook.acking()).attemptId();
        awaitCompletionAckedBy(job, live, 0);

        // when the old attempt's very TaskStarted record, signature and all, is produced again
        replay(oldStart);

        // then it is rejected with a reason, on the journal and on the control topic, and nothing is aborted
        TaskStartRejected rejected = bed.awaitJournal(TaskStartRejected.class,
                r -> r.getJobId().equals(job) && r.getAttemptId().equals(old));
        assertThat(rejected.getCurrentAttemptId()).isEqualTo(live);
        assertThat(rejected.getReason()).contains("not after the current attempt " + live);
        assertThat(bed.awaitControl(TaskStartRejected.class, r -> r.getJobId().equals(job)).getAttemptId())
                .isEqualTo(old);
        // and checkpoints triggered after the rejection complete with the live attempt's acks
        awaitCompletionsAckedBy(job, live, rejected.getTimestampMs(), 2);
        assertThat(bed.journal(CheckpointAborted.class, a -> a.getJobId().equals(job)
                && a.getReason() == CheckpointFailureReason.TASK_FAILURE
                && a.getTimestampMs() >= rejected.getTimestampMs())).isEmpty();
        assertThat(bed.journal(TaskStarted.class, s -> s.getJobId().equals(job)))
                .extracting(TaskStarted::getAttemptId).containsExactly(old, live);
    }

    @Test
    void shouldLetARestartWhoseClockIsBehindTakeOverAtOnce() {
        // given a sidecar that checkpointed with the host's clock
        String job = CoordinatorTestBed.uniqueJobId("skewed-start");
        bed.register(Events.job(job, 300, 10_000, "source"));
        Sidecar first = sidecars.start(job, "source", 0, RecordingHook.acking());
        awaitCompletionAckedBy(job, first.attemptId(), 0);
        first.close();
        TaskStarted firstStart = bed.awaitJournal(TaskStarted.class,
                s -> s.getJobId().equals(job) && s.getAttemptId().equals(first.attemptId()));

        // when its subtask restarts on a host whose clock is ten minutes behind
        Clock behind = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-10));
        try (KafkaSidecar restarted = KafkaSidecar.start(sidecars.config(job, "source", 0).runtimeSettings(),
                RecordingHook.acking(), behind)) {
            String attempt = restarted.attempt().attemptId();

            // then its first announcement is rejected, it announces itself again after the first attempt's start
            TaskStartRejected rejected = bed.awaitJournal(TaskStartRejected.class,
                    r -> r.getJobId().equals(job) && r.getAttemptId().equals(attempt));
            assertThat(rejected.getCurrentStartedAtMs()).isEqualTo(firstStart.getTimestampMs());
            TaskStarted again = bed.awaitJournal(TaskStarted.class,
                    s -> s.getJobId().equals(job) && s.getAttemptId().equals(attempt));
            assertThat(again.getTimestampMs()).isEqualTo(firstStart.getTimestampMs() + 1);
            // and takes over: checkpoints complete with its acks
            awaitCompletionAckedBy(job, attempt, again.getTimestampMs());
        }
    }

    /**
     * Waits for a checkpoint of the job triggered after {@code triggeredAfterMs} that completed with the ack of
     * {@code attemptId}.
     */
    private static void awaitCompletionAckedBy(String job, String attemptId, long triggeredAfterMs) {
        awaitCompletionsAckedBy(job, attemptId, triggeredAfterMs, 1);
    }

    /** Waits for {@code count} such checkpoints. */
    private static void awaitCompletionsAckedBy(String job, String attemptId, long triggeredAfterMs, int count) {
        await().atMost(CoordinatorTestBed.WAIT).until(() -> completedAckedBy(job, attemptId, triggeredAfterMs),
                found -> found.size() >= count);
    }

    private static List<Long> completedAckedBy(String job, String attemptId, long triggeredAfterMs) {
        return bed.journal(CheckpointCompleted.class, c -> c.getJobId().equals(job)
                        && c.getTriggerTimestampMs() > triggeredAfterMs).stream()
                .map(CheckpointCompleted::getCheckpointId)
                .filter(id -> !bed.journal(CheckpointAcknowledged.class, a -> a.getJobId().equals(job)
                        && a.getCheckpointId() == id && a.getAttemptId().equals(attemptId)).isEmpty())
                .toList();
    }

    /** Produces a record of the acks topic again, as it was: key, value and signature header. */
    private static void replay(ConsumerRecord<String, byte[]> record) throws Exception {
        try (KafkaProducer<String, byte[]> replay = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bed.bootstrapServers()), new StringSerializer(),
                new ByteArraySerializer())) {
            replay.send(new ProducerRecord<>(bed.topics().acks(), null, record.key(), record.value(),
                    record.headers())).get();
        }
    }

    /** The record of the acks topic that carried the sidecar's announcement of {@code attemptId}. */
    private static ConsumerRecord<String, byte[]> genuineStart(String job, String attemptId) {
        try (TopicTail<byte[]> acks = TopicTail.fromBeginning(bed.bootstrapServers(), bed.topics().acks(),
                new ByteArrayDeserializer(), value -> value)) {
            return await().atMost(CoordinatorTestBed.WAIT).until(() -> acks.records().stream()
                    .filter(r -> job.equals(r.key()) && CairnSerdes.acks().deserialize(r.topic(), r.value())
                            .getEvent() instanceof TaskStarted s && s.getAttemptId().equals(attemptId))
                    .findFirst().orElse(null), r -> r != null);
        }
    }
}
