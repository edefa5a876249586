package dev.cairn.kafka.test;

/**
 * Where the Kafka cluster of a test run comes from.
 */
public enum KafkaClusterKind {

    /** A {@link dev.cairn.kafka.EmbeddedKafkaBroker} inside the test JVM. */
    EMBEDDED,

    /** A Testcontainers {@code apache/kafka} container; needs a reachable Docker engine. */
    TESTCONTAINERS
}
