package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.RecordSignatures;
import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.coordinator.testbed.FaultChecks;
import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.serde.NewerSchemas;
import dev.cairn.events.serde.SchemaPublisher;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sidecars and tools of the next release write to a coordinator of this one: their acks and requests carry a schema
 * this release does not ship (a new optional field), which their writers published on the schemas topic. The
 * coordinator resolves it there, checks the signatures as always, and runs the job; a record whose schema nobody
 * published is dead-lettered as before. The coordinator itself published the schemas it writes when it started.
 */
@ExtendWith(KafkaClusterExtension.class)
class NextReleaseWritersIT {

    private static final SigningKey MASTER = SigningKey.generate();
    private static final Schema NEWER_ACKS = NewerSchemas.withNewField(NewerSchemas.current(AckEnvelope.class));
    private static final Schema NEWER_REQUESTS = NewerSchemas.withNewField(
            NewerSchemas.current(RequestEnvelope.class));

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().signedWith(MASTER).create();
    private static FaultChecks checks;
    private static KafkaProducer<String, byte[]> raw;

    @BeforeAll
    static void publishTheNextReleasesSchemas() {
        checks = FaultChecks.on(cairn);
        raw = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cairn.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer());
        assertThat(SchemaPublisher.publishSchemas(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                cairn.bootstrapServers()), cairn.topics().schemas(), List.of(NEWER_ACKS, NEWER_REQUESTS),
                Duration.ofSeconds(30))).isTrue();
    }

    @AfterAll
    static void close() {
        raw.close();
        checks.close();
    }

    @Test
    void shouldHavePublishedTheSchemasItWritesWhenItStarted(KafkaCluster kafka) {
        List<Class<? extends SpecificRecord>> written = List.of(JournalEnvelope.class, ControlEnvelope.class,
                RetainedCheckpoints.class, RestorePart.class, RequestEnvelope.class);

        Set<String> keys = schemasTopicKeys(kafka);

        assertThat(keys).containsAll(SchemaPublisher.schemasOf(written).stream().map(SchemaPublisher::key).toList());
    }

    @Test
    void shouldRunAJobWhoseSidecarWritesWithTheNextReleasesSchema() {
        String job = CoordinatorTestBed.uniqueJobId("next-sidecar");
        cairn.register(Events.job(job, 200, 10_000, "source"));
        TaskStarted started = Events.taskStarted(job, "source", 0, "a-1").build();

        sendNewerAck(job, started);
        CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job));
        sendNewerAck(job, Events.ack(job, triggered.getCheckpointId(), "source", 0, "a-1").build());

        CheckpointCompleted completed = cairn.awaitNextControl(CheckpointCompleted.class,
                c -> c.getJobId().equals(job));
        assertThat(completed.getCheckpointId()).isEqualTo(triggered.getCheckpointId());
        assertThat(cairn.awaitJournal(TaskStarted.class, t -> t.getJobId().equals(job)))
                .as("the fields this release knows, as written").isEqualTo(started);
    }

    @Test
    void shouldRegisterAJobSpecWrittenWithTheNextReleasesSchema() {
        String job = CoordinatorTestBed.uniqueJobId("next-cli");
        JobSpec spec = Events.job(job, 200, 10_000, "source");

        cairn.sendRawRequest(job, newer(new RequestEnvelope(spec), NEWER_REQUESTS));
        cairn.startTask(job, "source", 0, "a-1");

        assertThat(cairn.awaitNextControl(CheckpointTriggered.class, t -> t.getJobId().equals(job))).isNotNull();
        assertThat(cairn.awaitJournal(JobSpec.class, s -> s.getJobId().equals(job)))
                .as("registered with its max parallelism fixed").isEqualTo(JobSpecs.withMaxParallelism(spec,
                        Optional.empty()));
    }

    @Test
    void shouldDeadLetterARecordWhoseSchemaNobodyPublishedAndGoOn() {
        String job = CoordinatorTestBed.uniqueJobId("unpublished");
        Schema unpublished = NewerSchemas.withNewEvent(NewerSchemas.current(AckEnvelope.class), "TaskPaused");
        byte[] value = newer(new AckEnvelope(Events.taskStarted(job, "source", 0, "a-1").build()), unpublished);

        sendSignedAck(job, value);

        String message = FaultChecks.header(checks.awaitDeadLetter("UNKNOWN_SCHEMA"), DeadLetterQueueHandler.MESSAGE);
        assertThat(message).contains(Long.toHexString(dev.cairn.events.serde.AvroEventSerde.fingerprint(unpublished)))
                .contains("nor on the schemas topic");
        checks.assertAHealthyJobCompletesACheckpoint();
    }

    private static void sendNewerAck(String job, Object event) {
        sendSignedAck(job, newer(new AckEnvelope(event), NEWER_ACKS));
    }

    /** What a sidecar of the next release sends: the value signed with its job's key, as this release signs. */
    private static void sendSignedAck(String job, byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        RecordSignatures.sign(headers, MASTER.jobKey(job), value);
        try {
            raw.send(new ProducerRecord<>(cairn.topics().acks(), null, job, value, headers)).get();
        } catch (Exception e) {
            throw new AssertionError("cannot produce to " + cairn.topics().acks(), e);
        }
    }

    private static byte[] newer(SpecificRecord envelope, Schema schema) {
        return NewerSchemas.encode(schema, NewerSchemas.asNewer(envelope, schema, record -> {
            if (record.getSchema().getField(NewerSchemas.NEW_FIELD) != null) {
                record.put(NewerSchemas.NEW_FIELD, "written by the next release");
            }
        }));
    }

    private static Set<String> schemasTopicKeys(KafkaCluster kafka) {
        String topic = cairn.topics().schemas();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Set<String> keys = new HashSet<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100))
                        .forEach(record -> keys.add(new String(record.key(), StandardCharsets.UTF_8)));
                return partitions.stream().allMatch(p -> consumer.position(p) >= ends.get(p));
            });
            return keys;
        }
    }
}
