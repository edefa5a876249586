package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.kafka.test.TopicTail;
import dev.cairn.sidecar.hook.DiscardedState;
import java.time.Duration;
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
 * Kafka delivers at least once: a genuine, signed ack that arrives again after its checkpoint completed (a sidecar
 * re-sending, or a record replayed) must not make the worker delete the state of the job's restore point.
 */
class ReplayedAckIT extends SidecarTestBase {

    private static final Duration QUIET = Duration.ofSeconds(2);

    @Test
    void shouldKeepTheRestorePointsStateWhenAnAcceptedAckOfItIsReplayed() throws Exception {
        // given a checkpoint completed from a real sidecar's signed ack
        String job = CoordinatorTestBed.uniqueJobId("replay");
        bed.register(Events.job(job, 500, 10_000, "source"));
        RecordingHook hook = RecordingHook.acking();
        sidecars.start(job, "source", 0, hook);
        CheckpointCompleted completed = bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job));
        long id = completed.getCheckpointId();

        // when the very record of its accepted ack, signature and all, is produced again
        ConsumerRecord<String, byte[]> genuine = genuineAck(job, id);
        try (KafkaProducer<String, byte[]> replay = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bed.bootstrapServers()), new StringSerializer(),
                new ByteArraySerializer())) {
            replay.send(new ProducerRecord<>(bed.topics().acks(), null, genuine.key(), genuine.value(),
                    genuine.headers())).get();
        }

        // then it is a duplicate answered without its state, and the worker is told to delete nothing of an ack
        // (the states of the checkpoints later ones subsume go to it as SUBSUMED, as they should)
        AckDiscarded discarded = bed.awaitJournal(AckDiscarded.class,
                d -> d.getJobId().equals(job) && d.getCheckpointId() == id);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.DUPLICATE);
        assertThat(discarded.getStateHandle()).isNull();
        await().during(QUIET).atMost(QUIET.multipliedBy(4))
                .until(() -> hook.discards().stream().noneMatch(DiscardedState::fromAck));
    }

    /** The record of the acks topic that carried the sidecar's ack of checkpoint {@code id}. */
    private static ConsumerRecord<String, byte[]> genuineAck(String job, long id) {
        try (TopicTail<byte[]> acks = TopicTail.fromBeginning(bed.bootstrapServers(), bed.topics().acks(),
                new ByteArrayDeserializer(), value -> value)) {
            return await().atMost(CoordinatorTestBed.WAIT).until(() -> acks.records().stream()
                    .filter(r -> job.equals(r.key()) && CairnSerdes.acks().deserialize(r.topic(), r.value())
                            .getEvent() instanceof CheckpointAcknowledged a && a.getCheckpointId() == id)
                    .findFirst().orElse(null), r -> r != null);
        }
    }
}
