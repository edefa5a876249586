package dev.cairn.kafka.test;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Starts a Kafka cluster in a Testcontainers {@code apache/kafka} container. All Testcontainers references live in
 * this class so that the rest of the extension works without Testcontainers on the class path.
 */
final class TestcontainersKafkaCluster {

    /** System property overriding the image, e.g. {@code apache/kafka:4.1.1}. */
    static final String IMAGE_PROPERTY = "cairn.kafka.image";

    /** The default image: the Kafka release of the project's {@code kafka.version} (keep the two in step). */
    static final String DEFAULT_IMAGE = "apache/kafka:4.4.0";

    private TestcontainersKafkaCluster() {
    }

    static boolean isDockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    /** The image to run: {@value #IMAGE_PROPERTY} if set, else {@value #DEFAULT_IMAGE}. */
    static String image() {
        String configured = System.getProperty(IMAGE_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return configured.trim();
        }
        return DEFAULT_IMAGE;
    }

    static RunningKafkaCluster start() {
        String image = image();
        KafkaContainer container = new KafkaContainer(DockerImageName.parse(image)
                        .asCompatibleSubstituteFor("apache/kafka"))
                .withEnv("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1")
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1")
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        try {
            container.start();
        } catch (RuntimeException e) {
            container.close();
            throw new IllegalStateException("Could not start a Kafka container from image " + image + " (selected by "
                    + KafkaClusterSelection.PROPERTY + "=" + System.getProperty(KafkaClusterSelection.PROPERTY,
                    KafkaClusterSelection.AUTO) + "); is a Docker engine reachable? Use -D"
                    + KafkaClusterSelection.PROPERTY + "=" + KafkaClusterSelection.EMBEDDED + " to run without Docker",
                    e);
        }
        return new RunningKafkaCluster(KafkaClusterKind.TESTCONTAINERS, container.getBootstrapServers(),
                container::close, "Kafka container " + container.getDockerImageName() + " at "
                        + container.getBootstrapServers());
    }
}
