package dev.cairn.client.requests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.SigningKey;
import dev.cairn.core.testing.Events;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.SchemaPublisher;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.topics.TopicInitializer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sender the CLI and the REST API share publishes the schema it writes requests with to the schemas topic of
 * the requests topic's prefix before its first request, so that a coordinator of an earlier release reads them.
 */
@ExtendWith(KafkaClusterExtension.class)
class RequestSenderSchemaIT {

    @Test
    void shouldPublishTheRequestSchemaBeforeItsFirstRequest(KafkaCluster kafka) {
        CairnTopics topics = new CairnTopics("sender-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        try (Admin admin = kafka.createAdmin()) {
            new TopicInitializer(admin, Duration.ofSeconds(60)).ensure(topics, 1, (short) 1);
        }

        try (KafkaRequestSender sender = new KafkaRequestSender(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers()), topics.requests(), Duration.ofSeconds(30),
                Optional.of(SigningKey.generate().requestsKey()))) {
            sender.send("job-1", new RequestEnvelope(Events.job("job-1", 1_000, 10_000, "source")));
            sender.send("job-2", new RequestEnvelope(Events.job("job-2", 1_000, 10_000, "source")));
        }

        assertThat(keys(kafka, topics.schemas()))
                .containsExactly(SchemaPublisher.key(RequestEnvelope.getClassSchema()));
    }

    private static List<String> keys(KafkaCluster kafka, String topic) {
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            List<String> keys = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(100))
                        .forEach(record -> keys.add(new String(record.key(), StandardCharsets.UTF_8)));
                return consumer.position(partition) >= end;
            });
            return keys;
        }
    }
}
