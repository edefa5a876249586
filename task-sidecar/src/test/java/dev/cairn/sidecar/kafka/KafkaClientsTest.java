package dev.cairn.sidecar.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaClientsTest {

    private static RuntimeSettings settings(Map<String, String> kafka) {
        return new RuntimeSettings("k1:9092,k2:9092", CairnTopics.defaults(), "orders", "sink", 3,
                Duration.ofSeconds(5), Duration.ofSeconds(30), kafka, null);
    }

    @Test
    void shouldBeIdempotentWaitForAllReplicasAndRetryLongWhenProducing() {
        Map<String, Object> props = KafkaClients.producer(settings(Map.of()));

        assertThat(props).containsEntry("bootstrap.servers", "k1:9092,k2:9092").containsEntry("acks", "all")
                .containsEntry("enable.idempotence", true).containsEntry("delivery.timeout.ms", "600000");
        assertThat((String) props.get("client.id")).contains("orders", "sink", "3");
    }

    @Test
    void shouldApplyPassedThroughSettingsWhenTheyDoNotWeakenTheGuarantees() {
        Map<String, String> user = Map.of("security.protocol", "SSL", "delivery.timeout.ms", "900000", "acks", "1",
                "enable.idempotence", "false", "isolation.level", "read_uncommitted", "group.id", "mine",
                "bootstrap.servers", "elsewhere:9092");

        Map<String, Object> producer = KafkaClients.producer(settings(user));
        Map<String, Object> consumer = KafkaClients.consumer(settings(user), "control");

        assertThat(producer).containsEntry("security.protocol", "SSL").containsEntry("delivery.timeout.ms", "900000")
                .containsEntry("acks", "all").containsEntry("enable.idempotence", true)
                .containsEntry("bootstrap.servers", "k1:9092,k2:9092");
        assertThat(consumer).containsEntry("security.protocol", "SSL")
                .containsEntry("isolation.level", "read_committed").containsEntry("enable.auto.commit", false)
                .doesNotContainKey("group.id");
    }
}
