package dev.cairn.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.serde.NewerSchemas;
import dev.cairn.events.serde.SchemaCatalog;
import dev.cairn.events.serde.SchemaPublisher;
import dev.cairn.events.serde.SchemaSamples;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.topics.TopicInitializer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * The schemas topic on a real broker: a writer of the next release publishes its schema there and writes with it; a
 * reader of this release, which does not ship that schema, resolves it from the topic. What the topic holds besides
 * (records that are no schema, or a schema under another fingerprint) is skipped with a warning, and the reader
 * goes on.
 */
@ExtendWith(KafkaClusterExtension.class)
class SchemaTopicIT {

    private static final List<Class<? extends SpecificRecord>> COORDINATOR_WRITES = List.of(JournalEnvelope.class,
            ControlEnvelope.class, RetainedCheckpoints.class, RestorePart.class, RequestEnvelope.class);

    private static KafkaCluster kafka;
    private final CairnTopics topics = new CairnTopics("schemas-" + UUID.randomUUID() + ".");
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeAll
    static void broker(KafkaCluster cluster) {
        kafka = cluster;
    }

    @BeforeEach
    void createTopicsAndWatchTheCatalogsLog() {
        try (Admin admin = kafka.createAdmin()) {
            new TopicInitializer(admin, Duration.ofSeconds(60)).ensure(topics, 2, (short) 1);
        }
        log.start();
        ((Logger) LoggerFactory.getLogger(SchemaCatalog.class)).addAppender(log);
    }

    @AfterEach
    void stopWatching() {
        ((Logger) LoggerFactory.getLogger(SchemaCatalog.class)).detachAppender(log);
    }

    @Test
    void shouldPublishTheSchemasAWriterWritesUnderTheirFingerprints() {
        assertThat(SchemaPublisher.publish(clientConfig(), topics.schemas(), COORDINATOR_WRITES)).isTrue();
        assertThat(SchemaPublisher.publish(clientConfig(), topics.schemas(), COORDINATOR_WRITES))
                .as("again, as the next instance does").isTrue();

        Map<String, byte[]> published = new HashMap<>();
        readAll(topics.schemas()).forEach(record -> published.put(new String(record.key(), StandardCharsets.UTF_8),
                record.value()));

        assertThat(published).hasSize(COORDINATOR_WRITES.size());
        for (Schema schema : SchemaPublisher.schemasOf(COORDINATOR_WRITES)) {
            assertThat(published.get(SchemaPublisher.key(schema))).isEqualTo(SchemaPublisher.value(schema));
        }
    }

    @Test
    void shouldReadARecordOfTheNextReleaseWhoseWriterPublishedItsSchema() {
        // given a coordinator of the next release: it publishes its control schema, then writes with it
        Schema newer = NewerSchemas.withNewField(NewerSchemas.current(ControlEnvelope.class));
        assertThat(SchemaPublisher.publishSchemas(clientConfig(), topics.schemas(), List.of(newer),
                Duration.ofSeconds(30))).isTrue();
        List<ControlEnvelope> samples = SchemaSamples.oneOfEachEvent(ControlEnvelope.class);
        for (ControlEnvelope sample : samples) {
            produce(topics.control(), newerRecord(sample, newer));
        }

        // when a sidecar of this release reads them, with and without the schemas topic
        SchemaCatalog catalog = SchemaCatalog.fromTopic(clientConfig(), topics.schemas());
        AvroEventSerde<ControlEnvelope> withCatalog = CairnSerdes.forEnvelope(ControlEnvelope.class, catalog);
        List<byte[]> values = readAll(topics.control()).stream().map(ConsumerRecord::value).toList();

        // then
        assertThat(values).hasSize(samples.size());
        assertThat(values.stream().map(value -> withCatalog.deserialize(topics.control(), value)).toList())
                .containsExactlyInAnyOrderElementsOf(samples);
        EventDecodingException withoutCatalog = catchThrowableOfType(EventDecodingException.class,
                () -> CairnSerdes.control().deserialize(topics.control(), values.get(0)));
        assertThat(withoutCatalog.problem()).isEqualTo(EventDecodingException.Problem.UNKNOWN_SCHEMA);
        assertThat(catalog.size()).isEqualTo(1);
    }

    @Test
    void shouldSkipMalformedRecordsOfTheSchemasTopicAndKeepReadingIt() {
        // given the schemas topic holds, before the real schema: no JSON, a schema under another's fingerprint,
        // a key that is no fingerprint, a tombstone
        Schema newerAcks = NewerSchemas.withNewField(NewerSchemas.current(AckEnvelope.class));
        String key = SchemaPublisher.key(newerAcks);
        produceRaw(topics.schemas(), key, "this is not JSON".getBytes(StandardCharsets.UTF_8));
        produceRaw(topics.schemas(), key, SchemaPublisher.value(NewerSchemas.current(AckEnvelope.class)));
        produceRaw(topics.schemas(), "0123-not-a-key", SchemaPublisher.value(newerAcks));
        produceRaw(topics.schemas(), key, null);
        assertThat(SchemaPublisher.publishSchemas(clientConfig(), topics.schemas(), List.of(newerAcks),
                Duration.ofSeconds(30))).isTrue();
        byte[] ack = newerRecord(SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(1), newerAcks);
        SchemaCatalog catalog = SchemaCatalog.fromTopic(clientConfig(), topics.schemas());
        AvroEventSerde<AckEnvelope> serde = CairnSerdes.forEnvelope(AckEnvelope.class, catalog);

        // when
        AckEnvelope read = serde.deserialize(topics.acks(), ack);

        // then the bad records were skipped with a warning each, and the good one taken
        assertThat(read).isEqualTo(SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(1));
        assertThat(warnings()).hasSize(3).anySatisfy(line -> assertThat(line).contains("not an Avro schema"))
                .anySatisfy(line -> assertThat(line).contains("is not the fingerprint of its schema"))
                .anySatisfy(line -> assertThat(line).contains("'0123-not-a-key' is not a fingerprint"));

        // and a schema published later, and garbage after it, are read by a later catch-up
        Schema newerControl = NewerSchemas.withNewField(NewerSchemas.current(ControlEnvelope.class));
        produceRaw(topics.schemas(), SchemaPublisher.key(newerControl), new byte[] {(byte) 0xFF, 0x00, 0x7B});
        assertThat(SchemaPublisher.publishSchemas(clientConfig(), topics.schemas(), List.of(newerControl),
                Duration.ofSeconds(30))).isTrue();
        byte[] control = newerRecord(SchemaSamples.oneOfEachEvent(ControlEnvelope.class).get(0), newerControl);
        AvroEventSerde<ControlEnvelope> controlSerde = CairnSerdes.forEnvelope(ControlEnvelope.class, catalog);
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> controlSerde.deserialize(topics.control(), control)
                        .equals(SchemaSamples.oneOfEachEvent(ControlEnvelope.class).get(0)));
        assertThat(warnings()).hasSize(4).last().asString().contains("not UTF-8");
        assertThat(catalog.size()).isEqualTo(2);
    }

    @Test
    void shouldNeitherPublishNorCreateATopicThatDoesNotExist() throws Exception {
        String absent = "absent-" + UUID.randomUUID() + ".schemas";

        assertThat(SchemaPublisher.publish(clientConfig(), absent, List.of(AckEnvelope.class), Duration.ofSeconds(10)))
                .isFalse();

        try (Admin admin = kafka.createAdmin()) {
            Set<String> names = admin.listTopics().names().get();
            assertThat(names).doesNotContain(absent);
        }
        SchemaCatalog catalog = SchemaCatalog.fromTopic(clientConfig(), absent);
        assertThat(catalog.findByFingerprint(42L)).as("a reader of a missing topic finds nothing").isNull();
    }

    private List<String> warnings() {
        return log.list.stream().filter(event -> event.getLevel() == ch.qos.logback.classic.Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static Map<String, Object> clientConfig() {
        return Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    }

    private static byte[] newerRecord(SpecificRecord sample, Schema newer) {
        GenericRecord record = NewerSchemas.asNewer(sample, newer,
                envelope -> envelope.put(NewerSchemas.NEW_FIELD, "written by the next release"));
        return NewerSchemas.encode(newer, record);
    }

    private static void produce(String topic, byte[] value) {
        produceRaw(topic, "job-1", value);
    }

    private static void produceRaw(String topic, String key, byte[] value) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new AssertionError("cannot produce to " + topic, e);
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(read::add);
                return partitions.stream().allMatch(p -> consumer.position(p) >= ends.get(p));
            });
            return read;
        }
    }
}
