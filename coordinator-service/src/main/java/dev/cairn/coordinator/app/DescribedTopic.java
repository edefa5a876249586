package dev.cairn.coordinator.app;

import java.util.Map;
import java.util.Objects;

/**
 * One topic as the brokers describe it: what {@link TopicDescriptions} reads and what {@link TopicRules} and
 * {@link DurabilityRules} judge. Holds no Kafka type.
 *
 * @param topic      the topic's name
 * @param partitions its partition count
 * @param replicas   its replication factor: the fewest replicas of any of its partitions
 * @param config     its effective configuration, every entry the brokers gave a value (the topic's own or the
 *                   brokers' default), e.g. {@code retention.ms -> 604800000}
 */
record DescribedTopic(String topic, int partitions, int replicas, Map<String, String> config) {

    DescribedTopic {
        Objects.requireNonNull(topic, "topic");
        config = Map.copyOf(config);
    }

    /**
     * The value of {@code key}.
     *
     * @throws IllegalStateException when the brokers described no value of it
     */
    String value(String key) {
        String value = config.get(key);
        if (value == null) {
            throw new IllegalStateException("the broker did not describe " + key + " of " + topic);
        }
        return value;
    }
}
