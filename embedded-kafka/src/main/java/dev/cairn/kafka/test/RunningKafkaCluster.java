package dev.cairn.kafka.test;

/**
 * A started Kafka cluster of either kind: where clients connect, and how to stop it.
 *
 * @param kind where it runs
 * @param bootstrapServers the value for the clients' {@code bootstrap.servers}
 * @param stop stops the cluster; called once, when the test run ends
 * @param description what it is, for the log
 */
record RunningKafkaCluster(KafkaClusterKind kind, String bootstrapServers, Runnable stop, String description)
        implements KafkaCluster, AutoCloseable {

    @Override
    public void close() {
        stop.run();
    }

    @Override
    public String toString() {
        return description;
    }
}
