package dev.cairn.kafka.test;

import dev.cairn.kafka.EmbeddedKafkaBroker;

/** A {@link KafkaCluster} backed by an {@link EmbeddedKafkaBroker}. */
final class EmbeddedKafkaCluster implements KafkaCluster, AutoCloseable {

    private final EmbeddedKafkaBroker broker;

    EmbeddedKafkaCluster(EmbeddedKafkaBroker broker) {
        this.broker = broker;
    }

    @Override
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    @Override
    public KafkaClusterKind kind() {
        return KafkaClusterKind.EMBEDDED;
    }

    @Override
    public void close() {
        broker.close();
    }

    @Override
    public String toString() {
        return broker.toString();
    }
}
