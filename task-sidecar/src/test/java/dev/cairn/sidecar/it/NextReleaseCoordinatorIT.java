package dev.cairn.sidecar.it;

import static dev.cairn.sidecar.it.ControlRecordsBed.completed;
import static dev.cairn.sidecar.it.ControlRecordsBed.trigger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.StateHandle;
import dev.cairn.events.serde.NewerSchemas;
import dev.cairn.events.serde.SchemaPublisher;
import dev.cairn.sidecar.hook.RestorePoint;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A coordinator of the next release writes to sidecars of this one: its control records and retained checkpoints
 * carry schemas this release does not ship (a new optional field), which it published on the schemas topic. The
 * sidecar resolves them there, restores, snapshots and acks; a record whose schema nobody published is skipped and
 * the sidecar goes on. The sidecar itself published the schema of its acks when it started.
 */
class NextReleaseCoordinatorIT extends ControlRecordsTestBase {

    private static final Schema NEWER_CONTROL = NewerSchemas.withNewField(NewerSchemas.current(ControlEnvelope.class));
    private static final Schema NEWER_RETAINED = NewerSchemas.withNewField(
            NewerSchemas.current(RetainedCheckpoints.class));

    @BeforeAll
    static void publishTheNextReleasesSchemas() {
        assertThat(SchemaPublisher.publishSchemas(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                bed.bootstrapServers()), bed.topics().schemas(), List.of(NEWER_CONTROL, NEWER_RETAINED),
                Duration.ofSeconds(30))).isTrue();
    }

    @Test
    void shouldRestoreSnapshotAndAckWhenTheCoordinatorWritesWithTheNextReleasesSchemas() {
        // given the newest retained checkpoint, written by the next release, holds the participant's state
        String job = CoordinatorTestBed.uniqueJobId("next-coordinator");
        CheckpointCompleted retained = completed(job, 5, -1, null);
        retained.setParticipantStates(List.of(new ParticipantState("offsets",
                StateHandle.newBuilder().setLocation("file:///cp/5").setSizeBytes(77L).build())));
        produce(bed.topics().completed(), job, newer(RetainedCheckpoints.newBuilder().setJobId(job)
                .setCheckpoints(List.of(retained)).build(), NEWER_RETAINED));
        RecordingHook participant = RecordingHook.acking();
        RecordingHook task = RecordingHook.acking();

        // when sidecars of this release start, and the coordinator triggers and completes checkpoint 6
        bed.start(bed.participantConfig(job, "offsets"), participant);
        bed.start(bed.taskConfig(job, "sink", 0), task);
        produce(bed.topics().control(), job, newer(new ControlEnvelope(trigger(job, 6, CheckpointType.CHECKPOINT,
                SnapshotOptions.newBuilder().build())), NEWER_CONTROL));
        CheckpointAcknowledged ack = bed.awaitAck(CheckpointAcknowledged.class, a -> a.getJobId().equals(job));
        produce(bed.topics().control(), job, newer(new ControlEnvelope(completed(job, 6, 5,
                SnapshotOptions.newBuilder().build())), NEWER_CONTROL));

        // then
        assertThat(participant.restores()).containsExactly(Optional.of(new RestorePoint(5, "file:///cp/5", 77)));
        assertThat(ack.getCheckpointId()).isEqualTo(6);
        Awaitility.await().atMost(ControlRecordsBed.WAIT).until(() -> task.completions().size() == 1);
        assertThat(task.completions()).containsExactly(new RecordingHook.Notification(6, 5));
    }

    @Test
    void shouldSkipAControlRecordWhoseSchemaNobodyPublishedAndGoOn() {
        String job = CoordinatorTestBed.uniqueJobId("unpublished");
        RecordingHook task = RecordingHook.acking();
        bed.start(bed.taskConfig(job, "sink", 0), task);
        Schema unpublished = NewerSchemas.withNewEvent(NewerSchemas.current(ControlEnvelope.class), "TaskPaused");

        produce(bed.topics().control(), job, newer(new ControlEnvelope(trigger(job, 1, CheckpointType.CHECKPOINT,
                SnapshotOptions.newBuilder().build())), unpublished));
        bed.control(job, trigger(job, 2, CheckpointType.CHECKPOINT, SnapshotOptions.newBuilder().build()));

        CheckpointAcknowledged ack = bed.awaitAck(CheckpointAcknowledged.class, a -> a.getJobId().equals(job));
        assertThat(ack.getCheckpointId()).as("checkpoint 1's trigger did not decode").isEqualTo(2);
        assertThat(task.snapshots()).hasSize(1);
    }

    @Test
    void shouldHavePublishedTheSchemaOfItsAcksWhenItStarted() {
        bed.start(bed.taskConfig(CoordinatorTestBed.uniqueJobId("publisher"), "sink", 0), RecordingHook.acking());

        assertThat(schemasTopicKeys()).contains(SchemaPublisher.key(NewerSchemas.current(AckEnvelope.class)));
    }

    private static byte[] newer(SpecificRecord envelope, Schema schema) {
        return NewerSchemas.encode(schema, NewerSchemas.asNewer(envelope, schema, record -> {
            if (record.getSchema().getField(NewerSchemas.NEW_FIELD) != null) {
                record.put(NewerSchemas.NEW_FIELD, "written by the next release");
            }
        }));
    }

    private static void produce(String topic, String key, byte[] value) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bed.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new AssertionError("cannot produce to " + topic, e);
        }
    }

    private static List<String> schemasTopicKeys() {
        String topic = bed.topics().schemas();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bed.bootstrapServers()), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<String> keys = new java.util.ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100))
                        .forEach(record -> keys.add(new String(record.key(), StandardCharsets.UTF_8)));
                return partitions.stream().allMatch(p -> consumer.position(p) >= ends.get(p));
            });
            return keys;
        }
    }
}
