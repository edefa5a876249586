package dev.cairn.coordinator.streams;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The consumers with which a stream task reads a partition of its own outside Kafka Streams (its journal partition
 * for a rebuild, its snapshots): configured as Kafka Streams configures the consumer that restores a changelog (the
 * application's connection and security settings, no group, read_committed under exactly-once).
 */
final class RestoreConsumers {

    private RestoreConsumers() {
    }

    /** A consumer of raw keys and values, its client id the application id followed by {@code purpose}. */
    static KafkaConsumer<byte[], byte[]> open(Map<String, Object> appConfigs, String purpose) {
        StreamsConfig streams = new StreamsConfig(appConfigs);
        Map<String, Object> config = streams.getRestoreConsumerConfigs(
                streams.getString(StreamsConfig.APPLICATION_ID_CONFIG) + "-" + purpose);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
