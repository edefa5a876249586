package dev.cairn.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.SchemaSamples;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.topics.TopicInitializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every Cairn event type goes through a real broker and the serde of its topic, and comes back equal. */
@ExtendWith(KafkaClusterExtension.class)
class EventContractIT {

    private static final CairnTopics TOPICS = new CairnTopics("contract-" + UUID.randomUUID() + ".");
    private static KafkaCluster kafka;

    @BeforeAll
    static void createTopics(KafkaCluster cluster) {
        kafka = cluster;
        try (Admin admin = cluster.createAdmin()) {
            List<String> created = new TopicInitializer(admin, Duration.ofSeconds(60)).ensure(TOPICS, 3, (short) 1);
            assertThat(created).containsExactlyInAnyOrderElementsOf(TOPICS.all());
        }
    }

    @Test
    void shouldCreateTopicsIdempotentlyWithTheirConfiguration() throws Exception {
        try (Admin admin = kafka.createAdmin()) {
            assertThat(new TopicInitializer(admin, Duration.ofSeconds(60)).ensure(TOPICS, 3, (short) 1)).isEmpty();
            Map<String, TopicDescription> topics = admin.describeTopics(TOPICS.all()).allTopicNames().get();
            assertThat(topics.values()).allSatisfy(t -> assertThat(t.partitions()).hasSize(3));
            ConfigResource journal = new ConfigResource(ConfigResource.Type.TOPIC, TOPICS.journal());
            ConfigResource completed = new ConfigResource(ConfigResource.Type.TOPIC, TOPICS.completed());
            ConfigResource schemas = new ConfigResource(ConfigResource.Type.TOPIC, TOPICS.schemas());
            var configs = admin.describeConfigs(List.of(journal, completed, schemas)).all().get();
            assertThat(configs.get(journal).get("retention.ms").value()).isEqualTo("-1");
            assertThat(configs.get(completed).get("cleanup.policy").value()).isEqualTo("compact");
            assertThat(configs.get(schemas).get("cleanup.policy").value()).isEqualTo("compact");
        }
    }

    @Test
    void shouldKeepExistingTopicsAsTheyAreWhenAskedForAnotherPartitionCount() throws Exception {
        try (Admin admin = kafka.createAdmin()) {
            TopicInitializer initializer = new TopicInitializer(admin, Duration.ofSeconds(60));

            assertThat(initializer.ensure(TOPICS, 5, (short) 1)).as("nothing created").isEmpty();

            assertThat(admin.describeTopics(TOPICS.all()).allTopicNames().get().values())
                    .as("the coordinator's start-up check judges the counts, not the initializer")
                    .allSatisfy(t -> assertThat(t.partitions()).hasSize(3));
        }
    }

    @Test
    void shouldCarryEveryRequestEvent() {
        roundTrip(TOPICS.requests(), CairnSerdes.requests(), SchemaSamples.oneOfEachEvent(RequestEnvelope.class));
    }

    @Test
    void shouldCarryEveryAckEvent() {
        roundTrip(TOPICS.acks(), CairnSerdes.acks(), SchemaSamples.oneOfEachEvent(AckEnvelope.class));
    }

    @Test
    void shouldCarryEveryControlEvent() {
        roundTrip(TOPICS.control(), CairnSerdes.control(), SchemaSamples.oneOfEachEvent(ControlEnvelope.class));
    }

    @Test
    void shouldCarryEveryJournalEvent() {
        roundTrip(TOPICS.journal(), CairnSerdes.journal(), SchemaSamples.oneOfEachEvent(JournalEnvelope.class));
    }

    @Test
    void shouldCarryRetainedCheckpoints() {
        roundTrip(TOPICS.completed(), CairnSerdes.retained(), SchemaSamples.oneOfEachEvent(RetainedCheckpoints.class));
    }

    private static <T extends SpecificRecord> void roundTrip(String topic, AvroEventSerde<T> serde, List<T> events) {
        Map<String, Object> producerProps = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        try (KafkaProducer<String, T> producer = new KafkaProducer<>(producerProps, new StringSerializer(), serde)) {
            for (T event : events) {
                producer.send(new ProducerRecord<>(topic, "job-1", event));
            }
            producer.flush();
        }
        Map<String, Object> consumerProps = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "contract-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<T> read = new ArrayList<>();
        try (KafkaConsumer<String, T> consumer = new KafkaConsumer<>(consumerProps, new StringDeserializer(), serde)) {
            consumer.subscribe(List.of(topic));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> read.add(r.value()));
                return read.size() >= events.size();
            });
        }
        assertThat(read).containsExactlyElementsOf(events);
    }
}
