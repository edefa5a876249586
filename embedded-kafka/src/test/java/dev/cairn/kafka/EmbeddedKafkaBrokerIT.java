package dev.cairn.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kafka.test.KafkaClusterKind;
import dev.cairn.kafka.test.KafkaClusterSelection;
import dev.cairn.topics.TopicNotReadyException;
import dev.cairn.topics.TopicReadiness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KafkaClusterExtension.class)
class EmbeddedKafkaBrokerIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void shouldProduceAndConsumeWhenUsingTheSharedCluster(KafkaCluster kafka) throws Exception {
        String topic = "round-trip-" + UUID.randomUUID();
        try (Admin admin = kafka.createAdmin()) {
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get(60, TimeUnit.SECONDS);
            TopicReadiness.awaitReady(admin, List.of(topic), WAIT);
        }

        List<String> sent = new ArrayList<>();
        try (KafkaProducer<String, String> producer = producer(kafka.bootstrapServers())) {
            for (int i = 0; i < 100; i++) {
                String value = "value-" + i;
                producer.send(new ProducerRecord<>(topic, "key-" + (i % 7), value));
                sent.add(value);
            }
            producer.flush();
        }

        List<ConsumerRecord<String, String>> received = consumeAtLeast(kafka.bootstrapServers(), topic, sent.size());
        assertThat(received).extracting(ConsumerRecord::value).containsExactlyInAnyOrderElementsOf(sent);
        for (ConsumerRecord<String, String> record : received) {
            int i = Integer.parseInt(record.value().substring("value-".length()));
            assertThat(record.key()).isEqualTo("key-" + (i % 7));
        }
        // Records with the same key land in one partition in send order.
        Map<String, List<String>> byKey = received.stream().collect(java.util.stream.Collectors.groupingBy(
                ConsumerRecord::key, java.util.LinkedHashMap::new,
                java.util.stream.Collectors.mapping(ConsumerRecord::value, java.util.stream.Collectors.toList())));
        byKey.forEach((key, values) -> assertThat(values)
                .isSortedAccordingTo(java.util.Comparator.comparingInt(v -> Integer.parseInt(v.substring(6)))));
    }

    @Test
    void shouldBeOfTheSelectedKindWhenShared(KafkaCluster kafka) {
        String property = System.getProperty(KafkaClusterSelection.PROPERTY);
        if (property == null || property.isBlank() || property.equalsIgnoreCase(KafkaClusterSelection.AUTO)) {
            KafkaClusterKind expected = KafkaClusterSelection.isDockerAvailable()
                    ? KafkaClusterKind.TESTCONTAINERS : KafkaClusterKind.EMBEDDED;
            assertThat(kafka.kind()).isEqualTo(expected);
        }
        assertThat(kafka.bootstrapServers()).isNotBlank();
    }

    @Test
    void shouldShareOneClusterWhenResolvedTwice(KafkaCluster first, KafkaCluster second) {
        assertThat(first).isSameAs(second);
    }

    @Test
    void shouldWaitUntilTopicsAreReadyWhenCreatingThem(KafkaCluster kafka) throws Exception {
        String topic = "created-" + UUID.randomUUID();
        kafka.createTopics(2, topic);
        kafka.createTopics(2, topic); // an existing topic is accepted
        try (Admin admin = kafka.createAdmin()) {
            assertThat(admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()).hasSize(2);
        }
    }

    @Test
    void shouldTimeOutWithAClearMessageWhenATopicIsMissing(KafkaCluster kafka) {
        String topic = "missing-" + UUID.randomUUID();
        try (Admin admin = kafka.createAdmin()) {
            assertThatThrownBy(() -> TopicReadiness.awaitReady(admin, List.of(topic), Duration.ofMillis(500)))
                    .isInstanceOf(TopicNotReadyException.class)
                    .hasMessageContaining(topic)
                    .hasMessageContaining("not ready")
                    .satisfies(e -> assertThat(((TopicNotReadyException) e).topics()).containsExactly(topic));
        }
    }

    @Test
    void shouldKeepAddressAndDataWhenRestartedAndDeleteTheLogDirWhenClosed() throws Exception {
        Path logDir;
        String topic = "restart-" + UUID.randomUUID();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(Map.of("log.segment.bytes", 1024 * 1024))) {
            logDir = broker.logDir();
            String bootstrap = broker.bootstrapServers();
            assertThat(bootstrap).startsWith("127.0.0.1:");
            assertThat(broker.isRunning()).isTrue();
            try (Admin admin = broker.createAdmin()) {
                admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
                TopicReadiness.awaitReady(admin, List.of(topic), WAIT);
            }
            try (KafkaProducer<String, String> producer = producer(bootstrap)) {
                producer.send(new ProducerRecord<>(topic, "k", "before-restart")).get(60, TimeUnit.SECONDS);
            }

            broker.stop();
            assertThat(broker.isRunning()).isFalse();
            broker.stop(); // idempotent
            broker.restart();
            assertThat(broker.isRunning()).isTrue();
            assertThat(broker.bootstrapServers()).isEqualTo(bootstrap);

            try (Admin admin = broker.createAdmin()) {
                TopicReadiness.awaitReady(admin, List.of(topic), WAIT);
            }
            try (KafkaProducer<String, String> producer = producer(bootstrap)) {
                producer.send(new ProducerRecord<>(topic, "k", "after-restart")).get(60, TimeUnit.SECONDS);
            }
            assertThat(consumeAtLeast(bootstrap, topic, 2)).extracting(ConsumerRecord::value)
                    .containsExactly("before-restart", "after-restart");
        }
        assertThat(Files.exists(logDir)).isFalse();
    }

    @Test
    void shouldRefuseOverridesWhenAPropertyIsManaged() {
        assertThatThrownBy(() -> EmbeddedKafkaBroker.start(Map.of("listeners", "PLAINTEXT://0.0.0.0:9092")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listeners");
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000),
                new StringSerializer(), new StringSerializer());
    }

    private static List<ConsumerRecord<String, String>> consumeAtLeast(String bootstrap, String topic, int count) {
        List<ConsumerRecord<String, String>> received = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Awaitility.await().atMost(WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(received::add);
                return received.size() >= count;
            });
        }
        return received;
    }
}
